// SPDX-License-Identifier: Apache-2.0
// A master restarted while the monitor's thread is busy: the scanner's own connection (on its own
// thread) reconnects to the new process before the master connection has heard of the restart. A
// pass asked for in that moment (the window's Refresh) must not read the new process: its empty
// keyspace would take the place of what the old process held before the restart is heard of, and
// the restart would then mark nothing at risk. Three real masters, no keyspace events.
#include "monitor/lockmonitor.h"
#include "support/monitorharness.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "topology/masterset.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

namespace tst_scanbeforerestartheard {

using namespace lockscope;
using namespace lockscope::test;

class TestScanBeforeRestartHeard : public QObject
{
    Q_OBJECT

private slots:
    void aPassAskedBeforeTheRestartIsHeardReadsNothing();
};

void TestScanBeforeRestartHeard::aPassAskedBeforeTheRestartIsHeardReadsNothing()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int m = 0; m < 3; ++m)
        group.at(m).command({"SET", "lock:r", "tok", "PX", "600000"});
    MonitorHarness h(group, 600000); // no pass of its own after the first: only the one asked for
    QVERIFY(h.waitForInitialScan(5000));
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:r").holding, 3, int(upperBoundMs(5000)));
    QSignalSpy restarts(h.masters.get(), &MasterSet::masterRestarted);

    // restart() blocks this thread, the monitor's: its master connection has not seen the old
    // process go. The scanner's connection, on its own thread, reconnects to the new one meanwhile.
    QVERIFY2(group.at(2).restart(), qPrintable(group.at(2).errorString()));
    QThread::msleep(1000);
    h.monitor->refresh();  // the master connection still says up: the ask goes out
    QThread::msleep(1000); // room for a pass of the new process, if one were let run

    QTRY_COMPARE_WITH_TIMEOUT(restarts.size(), 1, int(upperBoundMs(5000)));
    QTRY_VERIFY2_WITH_TIMEOUT(h.view("lock:r").atRisk,
                              qPrintable(QStringLiteral("holding %1, M3 %2")
                                             .arg(h.view("lock:r").holding)
                                             .arg(h.view("lock:r").observations.value(2).present()
                                                      ? QStringLiteral("present")
                                                      : QStringLiteral("not present"))),
                              int(upperBoundMs(5000)));
    QVERIFY(h.view("lock:r").atRiskReason().contains(QStringLiteral("restarted")));
    // The new process is read once the restart is heard of: the copy it lost shows as lost.
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:r").holding, 2, int(upperBoundMs(5000)));
    QVERIFY(h.view("lock:r").atRisk);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanBeforeRestartHeard)

} // namespace tst_scanbeforerestartheard

#include "tst_scanbeforerestartheard.moc"
