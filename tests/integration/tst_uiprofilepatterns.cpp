// SPDX-License-Identifier: Apache-2.0
#include "config/launchconfig.h"
#include "connections/connectionsdialog.h"
#include "connections/profilestore.h"
#include "locks/locktablemodel.h"
#include "support/redisserver.h"
#include "support/testregistry.h"
#include "widgets/patternlistedit.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiprofilepatterns {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Nine locks: five where the default patterns look (lock:*, mutex:*, semaphore:*, and orders-lock
// found by its shape under *lock*), four under the application's own job: prefix.
void takeLocks(const RedisServer& server)
{
    for (const QByteArray& key :
         {QByteArray("lock:a"), QByteArray("lock:b"), QByteArray("orders-lock"), QByteArray("mutex:pay"),
          QByteArray("job:1"), QByteArray("job:2"), QByteArray("job:3"), QByteArray("job:4")})
        server.command({"SET", key, "9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c", "PX", "600000"});
    server.command({"ZADD", "semaphore:pool", "1750000000000", "holder-1"});
    server.command({"PEXPIRE", "semaphore:pool", "600000"});
}

QPushButton* button(QWidget* parent, const QString& text)
{
    for (QPushButton* b : parent->findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

} // namespace

class TestUiProfilePatterns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void profileWithPatternsShowsTheLocksTheyMatch();

private:
    // Opens the window the way Ctrl+K does: the profile chosen in Connections, combined with the launch.
    int locksShownFor(ConnectionsDialog& dialog, int expected);

    RedisServer m_server;
    QTemporaryDir m_dir;
};

void TestUiProfilePatterns::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiprofilepatterns"));
    QSettings().clear();
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    takeLocks(m_server);
    ConnectionProfile profile;
    profile.name = QStringLiteral("jobs");
    MasterEntry master;
    master.url = m_server.url(false);
    // The fixture's password, as a profile takes it where no keychain is (this process's environment).
    master.passwordEnv = QString::fromLatin1(testPasswordVar);
    qputenv(testPasswordVar, m_server.options().password.toUtf8());
    profile.masters << master;
    ProfileStore::save({profile});
}

int TestUiProfilePatterns::locksShownFor(ConnectionsDialog& dialog, int expected)
{
    QPushButton* connect = button(&dialog, QStringLiteral("&Connect"));
    if (!connect)
        return -1;
    connect->click();
    if (!dialog.chosenConfig())
        return -1;
    LaunchConfig launch; // started with no options
    LockScopeConfig config =
        launch.combine(*dialog.chosenConfig(), dialog.chosenLockedReadOnly(), dialog.chosenPatterns());
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    window.show();
    if (!scanned.wait(int(lockscope::test::upperBoundMs(10000))))
        return -1;
    // The first picture may still be on its way through the window's batch queue.
    const bool settled = QTest::qWaitFor([&] { return window.lockModel()->rowCount() == expected; },
                                         int(lockscope::test::upperBoundMs(3000)));
    Q_UNUSED(settled); // the caller compares the count
    return window.lockModel()->rowCount();
}

void TestUiProfilePatterns::profileWithPatternsShowsTheLocksTheyMatch()
{
    {
        // A profile without patterns scans the default ones: 5 of the 9 locks.
        ConnectionsDialog dialog;
        QVERIFY(dialog.patternEdit()->patterns().isEmpty());
        QCOMPARE(locksShownFor(dialog, 5), 5);
    }
    {
        // The user adds the application's prefix in Connections: the defaults stay next to it.
        ConnectionsDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        PatternListEdit* patterns = dialog.patternEdit();
        patterns->addButton()->click();
        auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY2(editor, "the new pattern's cell is being edited");
        QTest::keyClicks(editor, QStringLiteral("job:*"));
        QTest::keyClick(editor, Qt::Key_Return);
        const QList<ScanPattern> expected = ScanPattern::defaults() << "job:*";
        QTRY_COMPARE(patterns->patterns(), expected); // the delegate commits what was typed queued
        // Saved with the profile at once ...
        QCOMPARE(ProfileStore::load().first().patterns, expected);
        // ... and the window opened on it shows all 9 locks.
        QCOMPARE(locksShownFor(dialog, 9), 9);
    }
    {
        // Reopened later, the profile still has them.
        ConnectionsDialog dialog;
        QCOMPARE(dialog.patternEdit()->patterns().size(), ScanPattern::defaults().size() + 1);
        QCOMPARE(locksShownFor(dialog, 9), 9);
    }
    QSettings().clear();
}

LOCKSCOPE_TEST_MAIN(TestUiProfilePatterns)

} // namespace tst_uiprofilepatterns

#include "tst_uiprofilepatterns.moc"
