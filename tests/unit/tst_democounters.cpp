// SPDX-License-Identifier: Apache-2.0
// The demo's counters and the one definition of "what happened during a scenario": the difference
// between two readings, field by field (the result line and the panel both use it).
#include "demo/democounters.h"
#include "demo/demosimulation.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_democounters {

using namespace lockscope;

class TestDemoCounters : public QObject
{
    Q_OBJECT

private slots:
    void sinceIsTheDifferenceOfEveryField();
    void violationsOfADifference();
    void clientKeysAreTheSimulationsOwn();
};

void TestDemoCounters::sinceIsTheDifferenceOfEveryField()
{
    DemoCounters before;
    before.acquisitions = 10;
    before.busy = 4;
    before.failures = 16;
    before.doubleHolds = 1;
    before.writesAccepted = 8;
    before.staleRejected = 2;
    before.staleAccepted = 0;
    before.overruns = 3;
    DemoCounters now = before;
    now.acquisitions += 2;
    now.busy += 5;
    now.failures += 14;
    now.doubleHolds += 1;
    now.writesAccepted += 1;
    now.staleRejected += 1;
    now.staleAccepted += 2;
    now.overruns += 0;
    const DemoCounters d = now.since(before);
    QCOMPARE(d.acquisitions, 2);
    QCOMPARE(d.busy, 5);
    QCOMPARE(d.failures, 14);
    QCOMPARE(d.doubleHolds, 1);
    QCOMPARE(d.writesAccepted, 1);
    QCOMPARE(d.staleRejected, 1);
    QCOMPARE(d.staleAccepted, 2);
    QCOMPARE(d.overruns, 0);
    // Nothing happened: all zero.
    const DemoCounters none = now.since(now);
    QCOMPARE(none.failures, 0);
    QCOMPARE(none.acquisitions, 0);
}

void TestDemoCounters::violationsOfADifference()
{
    DemoCounters before;
    before.doubleHolds = 2;
    before.staleAccepted = 1;
    DemoCounters now = before;
    now.doubleHolds = 3;
    now.staleAccepted = 4;
    QCOMPARE(now.since(before).violations(), 1 + 3);
}

void TestDemoCounters::clientKeysAreTheSimulationsOwn()
{
    for (const QByteArray& r : DemoSimulation::clientResources()) {
        QVERIFY(DemoSimulation::isClientKey(r));
        QVERIFY(DemoSimulation::isClientKey(DemoSimulation::taskFor(r, 0, 0).counterKey));
    }
    QVERIFY(DemoSimulation::isClientKey("lock:demo:orders"));
    QVERIFY(DemoSimulation::isClientKey("fencing:ledger"));
    // The sample locks and other clients' keys are not the simulation's.
    QVERIFY(!DemoSimulation::isClientKey("lock:orders:checkout"));
    QVERIFY(!DemoSimulation::isClientKey("lock:demo:mine"));
    QVERIFY(!DemoSimulation::isClientKey("semaphore:db-pool"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDemoCounters)

} // namespace tst_democounters

#include "tst_democounters.moc"
