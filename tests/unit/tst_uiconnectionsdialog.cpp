// SPDX-License-Identifier: Apache-2.0
// Issue #20, the Connections dialog as a new user meets it: "Profile:" without a stray ampersand,
// the URL column taking the room, several masters pasted at once (bad lines reported by number,
// never with their user-info), and the quorum given as an exact count.
#include "config/configloader.h"
#include "config/launchconfig.h"
#include "connections/connectioneditor.h"
#include "connections/connectionsdialog.h"
#include "connections/pastemastersdialog.h"
#include "connections/profilestore.h"
#include "connections/teamdatabaseeditor.h"
#include "support/testregistry.h"
#include "support/testsettings.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace tst_uiconnectionsdialog {

using namespace lockscope;

namespace {

ConnectionProfile fiveMasters()
{
    ConnectionProfile p;
    p.name = QStringLiteral("production-eu");
    for (int i = 1; i <= 5; ++i) {
        MasterEntry e;
        e.url = QStringLiteral("rediss://redis-%1.production-eu.internal.example.com:6380/0").arg(i);
        e.passwordEnv = QStringLiteral("REDIS_PASSWORD");
        p.masters << e;
    }
    return p;
}

QLabel* labelSaying(QWidget& parent, const QString& part)
{
    for (QLabel* l : parent.findChildren<QLabel*>())
        if (l->text().contains(part))
            return l;
    return nullptr;
}

QPushButton* button(QWidget& parent, const QString& text)
{
    for (QPushButton* b : parent.findChildren<QPushButton*>())
        if (b->text().remove(QLatin1Char('&')) == text)
            return b;
    return nullptr;
}

} // namespace

class TestUiConnectionsDialog : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void profileLabelHasNoLiteralAmpersand();
    void editorMnemonicsReachTheirFields();
    void urlColumnTakesTheRoom();
    void quorumIsAnExactCount();
    void pasteSeveralMasters();
    void aPasswordWithoutAKeychainIsKeptForTheSession();
    void aProfilesTeamDatabaseWithItsPasswordOutOfTheSettings();

private:
    QTemporaryDir m_dir;
};

void TestUiConnectionsDialog::init()
{
    QVERIFY(m_dir.isValid());
    test::useTestSettings(m_dir.path(), QStringLiteral("tst_uiconnectionsdialog"));
    ProfileStore::save({fiveMasters()});
}

void TestUiConnectionsDialog::profileLabelHasNoLiteralAmpersand()
{
    ConnectionsDialog dialog;
    dialog.show();
    QLabel* label = labelSaying(dialog, QStringLiteral("Profile:"));
    QVERIFY(label);
    // A QLabel shows '&' literally unless it has a buddy to give the shortcut to.
    QVERIFY2(!label->text().contains(QLatin1Char('&')) || label->buddy(),
             qPrintable(QStringLiteral("shows \"%1\"").arg(label->text())));
    if (label->buddy())
        QCOMPARE(label->buddy(), static_cast<QWidget*>(dialog.findChild<QComboBox*>()));
}

void TestUiConnectionsDialog::editorMnemonicsReachTheirFields()
{
    ConnectionEditor editor;
    editor.show();
    int labelled = 0;
    for (QLabel* label : editor.findChildren<QLabel*>()) {
        if (!label->text().contains(QLatin1Char('&')))
            continue;
        ++labelled;
        QWidget* buddy = label->buddy();
        QVERIFY2(buddy, qPrintable(QStringLiteral("\"%1\" shows its '&'").arg(label->text())));
        QWidget* target = buddy->focusProxy() ? buddy->focusProxy() : buddy;
        QVERIFY2(target->focusPolicy() != Qt::NoFocus,
                 qPrintable(QStringLiteral("\"%1\" leads nowhere").arg(label->text())));
    }
    QVERIFY(labelled >= 5);
}

void TestUiConnectionsDialog::urlColumnTakesTheRoom()
{
    ConnectionsDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* table = dialog.findChild<QTableWidget*>();
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 5);
    const QHeaderView* header = table->horizontalHeader();
    QCOMPARE(header->sectionResizeMode(0), QHeaderView::Stretch);
    QVERIFY(!table->wordWrap());
    const int password = 3;
    QVERIFY2(table->columnWidth(0) > 2 * table->columnWidth(password),
             qPrintable(QStringLiteral("URL %1 px, password %2 px")
                            .arg(table->columnWidth(0))
                            .arg(table->columnWidth(password))));
    // Every row one line high: the URL does not wrap.
    QVERIFY2(table->rowHeight(0) < 2 * table->fontMetrics().height() + 8,
             qPrintable(QString::number(table->rowHeight(0))));
}

void TestUiConnectionsDialog::quorumIsAnExactCount()
{
    ConnectionsDialog dialog;
    dialog.show();
    QLabel* message = labelSaying(dialog, QStringLiteral("Redlock needs"));
    QVERIFY(message);
    QVERIFY2(message->text().contains(QStringLiteral("needs 3 of 5")), qPrintable(message->text()));
    QVERIFY2(!message->text().contains(QStringLiteral("majority")), qPrintable(message->text()));
}

void TestUiConnectionsDialog::pasteSeveralMasters()
{
    ConnectionsDialog dialog;
    dialog.show();
    QPushButton* several = button(dialog, QStringLiteral("Add several…"));
    QVERIFY2(several, "no way to add several masters at once");

    QString problems;
    bool okWhileBad = true;
    bool okWhenGood = false;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* paste = qobject_cast<PasteMastersDialog*>(w);
            if (!paste || !paste->isVisible())
                continue;
            answer.stop();
            QPushButton* ok = paste->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            paste->edit()->setPlainText(QStringLiteral("redis://10.0.0.1:6379\n"
                                                       "redis://admin:hunter2@10.0.0.2:6379\n"
                                                       "  redis://10.0.0.3:6379   redis://10.0.0.4:6379\n"
                                                       "http://ops:s3cr3t@10.0.0.5:6379\n"
                                                       "\n"
                                                       "redis://10.0.0.6:99999"));
            problems = paste->problemLabel()->text();
            okWhileBad = ok->isEnabled();
            paste->edit()->setPlainText(QStringLiteral("redis://10.0.0.1:6379\n"
                                                       "  redis://10.0.0.3:6379   redis://10.0.0.4:6379\n"
                                                       "\n"));
            okWhenGood = ok->isEnabled();
            ok->click();
        }
    });
    answer.start(20);
    several->click(); // modal: returns once answered
    QVERIFY2(!problems.isEmpty(), "the paste dialog never showed");
    QVERIFY2(problems.contains(QStringLiteral("line 2:")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("line 4:")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("line 6:")), qPrintable(problems));
    QVERIFY2(!problems.contains(QStringLiteral("line 1:")), qPrintable(problems));
    QVERIFY2(!problems.contains(QStringLiteral("line 3:")), qPrintable(problems));
    for (const char* secret : {"hunter2", "admin", "s3cr3t", "ops:"})
        QVERIFY2(!problems.contains(QLatin1String(secret)), qPrintable(problems));
    QVERIFY(!okWhileBad);
    QVERIFY(okWhenGood);

    auto* table = dialog.findChild<QTableWidget*>();
    QCOMPARE(table->rowCount(), 8);
    QCOMPARE(table->item(7, 0)->text(), QStringLiteral("redis://10.0.0.4:6379"));
    QCOMPARE(ProfileStore::load().value(0).masters.size(), 8);
    QVERIFY(labelSaying(dialog, QStringLiteral("needs 5 of 8")));
}

void TestUiConnectionsDialog::aPasswordWithoutAKeychainIsKeptForTheSession()
{
    // The suite runs without a session bus: no keychain is reachable, as on a bare server or a
    // fresh desktop. A password that was typed (and passed the Test button) was thrown away on OK,
    // and connecting failed with NOAUTH.
    ConnectionsDialog dialog;
    dialog.show();
    QPushButton* add = button(dialog, QStringLiteral("Add master…"));
    QVERIFY(add);
    bool answered = false;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* editor = qobject_cast<ConnectionEditor*>(w);
            if (!editor || !editor->isVisible())
                continue;
            answer.stop();
            editor->urlEdit()->setText(QStringLiteral("redis://127.0.0.1:6390"));
            editor->passwordEdit()->setText(QStringLiteral("pw-kept-7Qz"));
            editor->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            answered = true;
        }
    });
    answer.start(20);
    add->click(); // modal: returns once answered
    QVERIFY2(answered, "the editor never showed");
    // The keychain's answer (none) has come once the dialog says the password was not saved.
    QTRY_VERIFY_WITH_TIMEOUT(labelSaying(dialog, QStringLiteral("not saved")), 15000);
    QLabel* said = labelSaying(dialog, QStringLiteral("not saved"));
    const QString message = said->text();
    auto* table = dialog.findChild<QTableWidget*>();
    const QString passwordCell = table->item(table->rowCount() - 1, 3)->text();
    // Never on disk.
    QSettings settings;
    for (const QString& key : settings.allKeys())
        QVERIFY2(!settings.value(key).toString().contains(QStringLiteral("pw-kept-7Qz")), qPrintable(key));

    button(dialog, QStringLiteral("Connect"))->click();
    QVERIFY(dialog.chosenConfig().has_value());
    QCOMPARE(dialog.chosenConfig()->masters.size(), 6); // the five of init() and this one
    QCOMPARE(dialog.chosenConfig()->masters.last().url.password(), QStringLiteral("pw-kept-7Qz"));
    // And the dialog said so.
    QVERIFY2(message.contains(QStringLiteral("kept for this session only")), qPrintable(message));
    QCOMPARE(passwordCell, QStringLiteral("this session only"));
}

void TestUiConnectionsDialog::aProfilesTeamDatabaseWithItsPasswordOutOfTheSettings()
{
    // Issue #45: a profile names its team database; the password goes to the keychain (here, with
    // none reachable, to this session only), never into the settings, and the profile opened
    // brings the database and its password to the window's configuration.
    ConnectionsDialog dialog;
    dialog.show();
    auto* team = dialog.findChild<QPushButton*>(QStringLiteral("teamDatabase"));
    QVERIFY(team);
    QString refusal;
    bool answered = false;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* editor = qobject_cast<TeamDatabaseEditor*>(w);
            if (!editor || !editor->isVisible())
                continue;
            answer.stop();
            // A password in the URL is refused, saying why.
            editor->urlEdit()->setText(QStringLiteral("postgresql://ops:team-pw-9Xq@127.0.0.1:5999/locks"));
            refusal = editor->canAccept() ? QString() : editor->problemLabel()->text();
            editor->urlEdit()->setText(QStringLiteral("postgresql://lockscope_writer@127.0.0.1:5999/locks"));
            editor->passwordEdit()->setText(QStringLiteral("team-pw-9Xq"));
            editor->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            answered = true;
        }
    });
    answer.start(20);
    team->click(); // modal: returns once answered
    QVERIFY2(answered, "the editor never showed");
    QVERIFY2(refusal.contains(QLatin1String("password")), qPrintable(refusal));
    QTRY_VERIFY_WITH_TIMEOUT(labelSaying(dialog, QStringLiteral("not saved")), 15000);
    QVERIFY2(team->text().contains(QStringLiteral("✓")), qPrintable(team->text()));
    QSettings settings;
    bool urlSaved = false;
    for (const QString& key : settings.allKeys()) {
        QVERIFY2(!settings.value(key).toString().contains(QStringLiteral("team-pw-9Xq")), qPrintable(key));
        urlSaved = urlSaved || settings.value(key).toString() ==
                                   QStringLiteral("postgresql://lockscope_writer@127.0.0.1:5999/locks");
    }
    QVERIFY(urlSaved);
    QCOMPARE(ProfileStore::load().first().team.url,
             QStringLiteral("postgresql://lockscope_writer@127.0.0.1:5999/locks"));

    button(dialog, QStringLiteral("Connect"))->click();
    QVERIFY(dialog.chosenConfig().has_value());
    QVERIFY(dialog.chosenConfig()->teamDatabase.has_value());
    QCOMPARE(dialog.chosenConfig()->teamDatabase->toString(),
             QStringLiteral("postgresql://lockscope_writer@127.0.0.1:5999/locks"));
    QCOMPARE(dialog.chosenConfig()->teamDatabasePassword, QStringLiteral("team-pw-9Xq"));
    // The window takes it, unless its command line named a team database of its own.
    LockScopeConfig started;
    LaunchConfig launch(started, {});
    const LockScopeConfig combined = launch.combine(*dialog.chosenConfig(), false, {}, std::nullopt);
    QVERIFY(combined.teamDatabase.has_value());
    QCOMPARE(combined.teamDatabasePassword, QStringLiteral("team-pw-9Xq"));
    started.teamDatabase = dialog.chosenConfig()->teamDatabase;
    QVERIFY(!ConfigLoader::setTeamDatabase(started, QStringLiteral("postgresql://other@127.0.0.1:5998/x"), {})
                 .isError());
    LaunchConfig named(started, {});
    QCOMPARE(named.combine(*dialog.chosenConfig(), false, {}, std::nullopt).teamDatabase->toString(),
             QStringLiteral("postgresql://other@127.0.0.1:5998/x"));
}

LOCKSCOPE_TEST_MAIN(TestUiConnectionsDialog)

} // namespace tst_uiconnectionsdialog

#include "tst_uiconnectionsdialog.moc"
