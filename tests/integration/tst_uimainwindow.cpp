// SPDX-License-Identifier: Apache-2.0
#include "detail/lockdetailpane.h"
#include "detail/quorumdiagram.h"
#include "eventlog/eventlogmodel.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "masters/mastertablemodel.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "window/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uimainwindow {

using namespace lockscope;
using namespace lockscope::test;

namespace {} // namespace

class TestUiMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void showsLocksMastersAndDetail();
    void masterDownIsVisibleWithinItsTimeout();
    void readOnlyGreysOutEveryWrite();

private:
    QTemporaryDir m_dir;
};

void TestUiMainWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Keep this test's window layout out of the user's settings.
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uimainwindow"));
}

void TestUiMainWindow::showsLocksMastersAndDetail()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:a", "tok-a", "PX", "60000"});
    group.at(0).command({"SET", "lock:b", "tok-b1", "PX", "60000"});
    group.at(1).command({"SET", "lock:b", "tok-b2", "PX", "60000"});
    MainWindow window(quickConfig(group, 1000), m_dir.filePath(QStringLiteral("audit.jsonl")));
    QAbstractItemModelTester masters(window.masterModel(),
                                     QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester events(window.eventLog(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    window.show();
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(5000))));
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2, 3000);
    QTRY_COMPARE(window.masterModel()->upCount(), 3);
    QCOMPARE(window.masterModel()->index(0, MasterTableModel::VersionColumn).data().toString().isEmpty(),
             false);

    window.lockView()->selectResource("lock:b");
    QVERIFY(window.detailPane()->view().has_value());
    QCOMPARE(window.detailPane()->view()->resource, QByteArray("lock:b"));
    QCOMPARE(window.detailPane()->view()->status, LockStatus::Contested);
    QTableWidget* perMaster = window.detailPane()->mastersTable();
    QCOMPARE(perMaster->rowCount(), 3);
    QCOMPARE(perMaster->item(0, LockDetailPane::TokenColumn)->text(), QStringLiteral("tok-b1"));
    QCOMPARE(perMaster->item(1, LockDetailPane::TokenColumn)->text(), QStringLiteral("tok-b2"));
    QCOMPARE(perMaster->item(2, LockDetailPane::TypeColumn)->text(), QStringLiteral("absent"));
    QVERIFY(window.forceReleaseAction()->isEnabled());

    // The lock changes on the masters: the detail follows without reselecting.
    group.at(1).command({"SET", "lock:b", "tok-b1", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(window.detailPane()->view()->status, LockStatus::Held, 3000);
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:b"));
}

void TestUiMainWindow::masterDownIsVisibleWithinItsTimeout()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    const int timeoutMs = 500;
    MainWindow window(quickConfig(group, timeoutMs), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 3, 5000);
    // Paused: the socket stays open and nothing answers, the hardest case to notice.
    group.at(2).pause();
    QElapsedTimer clock;
    clock.start();
    const QModelIndex stateCell = window.masterModel()->index(2, MasterTableModel::StateColumn);
    // Read from what the window shows, not from the connection: the first retry follows within
    // 50 ms and its state must read as down too, or the master would blink back for a timeout.
    QTRY_VERIFY_WITH_TIMEOUT(stateCell.data().toString().startsWith(QLatin1String("DOWN")), 3000);
    // A ping goes out every 100 ms and times out after 500 ms: down within the timeout plus one
    // interval, plus the trip through the core thread.
    QVERIFY2(clock.elapsed() <= lockscope::test::upperBoundMs(timeoutMs + 100 + 400),
             qPrintable(QString::number(clock.elapsed())));
    // And it stays down across the retries (each one a connect that the paused server accepts and a
    // handshake that times out), however the retries and this check interleave.
    QElapsedTimer watching;
    watching.start();
    while (watching.elapsed() < 2 * timeoutMs) {
        QVERIFY2(stateCell.data().toString().startsWith(QLatin1String("DOWN")),
                 qPrintable(stateCell.data().toString()));
        QTest::qWait(10);
    }
    bool logged = false;
    for (int r = 0; r < window.eventLog()->rowCount(); ++r)
        logged = logged || (window.eventLog()->entry(r).kind == EventLogModel::Kind::Error &&
                            window.eventLog()->entry(r).source == window.masterModel()->snapshot(2).name);
    QVERIFY(logged);
    group.at(2).resume();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->snapshot(2).state, RedisConnection::State::Up, 5000);
}

void TestUiMainWindow::readOnlyGreysOutEveryWrite()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:x", "tok", "PX", "60000"});
    LockScopeConfig config = quickConfig(group, 1000);
    config.readOnly = true;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.isReadOnly(), 3000);
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 5000);
    window.lockView()->selectResource("lock:x");
    QVERIFY(!window.acquireAction()->isEnabled());
    QVERIFY(!window.forceReleaseAction()->isEnabled());
    bool badge = false;
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
        badge = badge || (label->isVisible() && label->text().contains(QStringLiteral("READ-ONLY")));
    QVERIFY(badge);
    QVERIFY(window.windowTitle().contains(QStringLiteral("read-only")));
}

LOCKSCOPE_TEST_MAIN(TestUiMainWindow)

} // namespace tst_uimainwindow

#include "tst_uimainwindow.moc"
