// SPDX-License-Identifier: Apache-2.0
// Issue #20: the first-launch dialog cancelled leaves a window without masters. It says what to do
// (Connect…, Start the demo) where the locks table would be, and offers no write.
#include "connections/connectionsdialog.h"
#include "connections/profilestore.h"
#include "locks/locktableview.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace tst_uiemptystate {

using namespace lockscope;
using namespace lockscope::test;

namespace {

QPushButton* buttonIn(QWidget* parent, const QString& text)
{
    for (QPushButton* b : parent->findChildren<QPushButton*>())
        if (b->isVisible() && b->text().remove(QLatin1Char('&')) == text)
            return b;
    return nullptr;
}

} // namespace

class TestUiEmptyState : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void noMastersShowsWhatToDo();
    void connectOpensTheConnectionsDialog();
    void startTheDemoAsksForTheDemo();
    void aProfileChosenFillsTheWindow();

private:
    QTemporaryDir m_dir;
};

void TestUiEmptyState::init()
{
    QVERIFY(m_dir.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiemptystate"));
}

void TestUiEmptyState::noMastersShowsWhatToDo()
{
    // What main() builds when the first-launch Connections dialog is cancelled.
    MainWindow window(LockScopeConfig(), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.emptyState());
    QTRY_VERIFY(window.emptyState()->isVisible());
    QVERIFY(buttonIn(&window, QStringLiteral("Connect…")));
    QVERIFY(buttonIn(&window, QStringLiteral("Start the demo")));
    // No write without masters.
    QVERIFY(!window.acquireAction()->isEnabled());
    QVERIFY(!window.forceReleaseAction()->isEnabled());
    // Nothing to scan: no progress bar stuck at "scanning 0%".
    for (QProgressBar* bar : window.findChildren<QProgressBar*>())
        QVERIFY2(!bar->isVisible(), qPrintable(bar->text()));
    // The explanation is readable, not clipped to a sliver.
    for (QLabel* label : window.emptyState()->findChildren<QLabel*>())
        if (label->wordWrap())
            QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(QStringLiteral("%1 px tall, needs %2")
                                    .arg(label->height())
                                    .arg(label->heightForWidth(label->width()))));
}

void TestUiEmptyState::connectOpensTheConnectionsDialog()
{
    MainWindow window(LockScopeConfig(), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QPushButton* connect = buttonIn(&window, QStringLiteral("Connect…"));
    QVERIFY(connect);
    bool opened = false;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<ConnectionsDialog*>(w); dialog && dialog->isVisible()) {
                opened = true;
                answer.stop();
                dialog->reject();
            }
    });
    answer.start(20);
    connect->click(); // modal: returns once the dialog was answered
    QVERIFY(opened);
    QVERIFY(window.emptyState()->isVisible()); // still nothing to watch
}

void TestUiEmptyState::startTheDemoAsksForTheDemo()
{
    MainWindow window(LockScopeConfig(), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy demo(&window, &MainWindow::demoRequested);
    QPushButton* start = buttonIn(&window, QStringLiteral("Start the demo"));
    QVERIFY(start);
    start->click();
    QCOMPARE(demo.size(), 1);
}

void TestUiEmptyState::aProfileChosenFillsTheWindow()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    ConnectionProfile profile;
    profile.name = QStringLiteral("dev");
    MasterEntry e;
    e.url = group.at(0).url(false);
    // The fixture's password, as a profile takes it where no keychain is (this process's environment).
    e.passwordEnv = QString::fromLatin1(testPasswordVar);
    qputenv(testPasswordVar, group.at(0).options().password.toUtf8());
    profile.masters << e;
    ProfileStore::save({profile});
    MainWindow window(LockScopeConfig(), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<ConnectionsDialog*>(w); dialog && dialog->isVisible()) {
                answer.stop();
                if (QPushButton* connect = buttonIn(dialog, QStringLiteral("Connect")))
                    connect->click();
                else
                    dialog->reject();
            }
    });
    answer.start(20);
    buttonIn(&window, QStringLiteral("Connect…"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.emptyState()->isVisible(), 5000);
    QVERIFY(window.lockView()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(window.acquireAction()->isEnabled(), 5000);
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("dev (1 master)")));
}

LOCKSCOPE_TEST_MAIN(TestUiEmptyState)

} // namespace tst_uiemptystate

#include "tst_uiemptystate.moc"
