// SPDX-License-Identifier: Apache-2.0
// The "Failover without a quorum" demo scenario against real processes: a local Sentinel group (one
// primary, one replica, three sentinels) and the five demo masters. The Sentinel part must end with
// two holders, seen from the core (the failover report, the monitor's view, the at-risk mark); the
// Redlock part must refuse B while A holds a majority. Every process started must be gone afterwards,
// also when the scenario is cancelled midway or its session destroyed mid-scenario.
#include "demo/democlient.h"
#include "demo/democluster.h"
#include "demo/democonfig.h"
#include "demo/demofailover.h"
#include "demo/demolab.h"
#include "demo/demoscenariorunner.h"
#include "demo/demosimulation.h"
#include "monitor/lockmonitor.h"
#include "support/demolabstart.h"
#include "support/processexists.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace tst_demofailover {

using namespace lockscope;
using lockscope::test::processExists;

class TestDemoFailover : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void sentinelDoubleGrantsWhereTheQuorumRefuses();
    void cancelMidwayStopsEveryProcess();
    void destroyingTheSimulationMidScenarioStopsEveryProcess();

private:
    QList<qint64> clusterPids() const;
    // Plays until `reached`; false when it finished first or timed out.
    bool playUntil(const std::function<bool()>& reached, int timeoutMs);

    std::unique_ptr<DemoCluster> m_cluster;
    std::unique_ptr<DemoLab> m_lab;
    DemoSimulation* m_sim = nullptr; // m_lab's
    LockScopeConfig m_config;
};

void TestDemoFailover::initTestCase()
{
    qRegisterMetaType<FailoverReport>();
    qRegisterMetaType<RedlockOutcome>();
}

void TestDemoFailover::init()
{
    test::startDemoLab(&m_cluster, &m_lab, &m_config);
    if (QTest::currentTestFailed())
        return;
    m_sim = m_lab->simulation();
    connect(m_lab->scenarios(), &DemoScenarioRunner::progress, this,
            [](const QString& text) { qInfo("progress: %s", qPrintable(text)); });
    // Background contention is beside the point here and only loads a shared machine.
    m_sim->start(m_config, false);
    QTRY_VERIFY_WITH_TIMEOUT(m_sim->allMastersUp(), 15000);
}

void TestDemoFailover::cleanup()
{
    m_lab.reset();
    m_sim = nullptr;
    m_cluster.reset();
}

QList<qint64> TestDemoFailover::clusterPids() const
{
    QList<qint64> pids;
    for (int i = 0; i < m_cluster->size(); ++i)
        pids << m_cluster->pid(i);
    return pids;
}

bool TestDemoFailover::playUntil(const std::function<bool()>& reached, int timeoutMs)
{
    m_lab->scenarios()->run(DemoScenario::FailoverWithoutQuorum);
    QSignalSpy finished(m_lab->scenarios(), &DemoScenarioRunner::finished);
    const bool arrived = QTest::qWaitFor([&] { return reached() || !finished.isEmpty(); }, timeoutMs);
    if (!finished.isEmpty())
        qWarning("finished early: %s", qPrintable(finished.at(0).at(2).toString()));
    return arrived && finished.isEmpty();
}

void TestDemoFailover::sentinelDoubleGrantsWhereTheQuorumRefuses()
{
    // The monitor the window runs on the five masters, on its own connections.
    MasterSet masters(m_config.masters);
    LockMonitor monitor(&masters, m_config);
    masters.open();
    monitor.start();
    DemoClient* a = m_sim->client(DemoSimulation::clientA);
    QSignalSpy refusedB(m_sim->client(DemoSimulation::clientB), &DemoClient::acquireFailed);
    QSignalSpy acquiredB(m_sim->client(DemoSimulation::clientB), &DemoClient::acquired);
    DemoFailover* f = m_sim->failover();
    QSignalSpy finished(m_lab->scenarios(), &DemoScenarioRunner::finished);
    QList<qint64> groupPids;
    connect(f->group(), &DemoSentinelGroup::started, this, [&] { groupPids = f->group()->startedPids(); });
    bool viewShowedAAtRiskBeforeB = false;
    connect(f, &DemoFailover::changed, this, [&] {
        if (f->wasMarkedAtRisk() && !f->isAcquiredByB())
            viewShowedAAtRiskBeforeB = true;
    });

    m_lab->scenarios()->run(DemoScenario::FailoverWithoutQuorum);
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(240000))));
    const bool ok = finished.at(0).at(1).toBool();
    const QString summary = finished.at(0).at(2).toString();
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY2(summary.contains(QLatin1String("two holders")) && summary.contains(QLatin1String("refused")),
             qPrintable(summary));

    // Sentinel: WAIT answered 0 before the kill, the report names A's lock as lost, the view was
    // marked at risk under A's token and now shows B's token.
    QCOMPARE(f->waitAnswer(), 0);
    QVERIFY(f->report().has_value());
    const FailoverReport& report = *f->report();
    QCOMPARE(report.master, 0);
    QCOMPARE(report.change.oldPrimary.port, f->group()->primaryPort());
    QCOMPARE(report.change.newPrimary.port, f->group()->replicaPort());
    QCOMPARE(report.atRisk, QList<QByteArray>{DemoFailover::resource()});
    QCOMPARE(report.lost, QList<QByteArray>{DemoFailover::resource()});
    QVERIFY(report.hasHazard());
    QVERIFY(f->reportLostA());
    QVERIFY(f->wasMarkedAtRisk());
    QVERIFY(viewShowedAAtRiskBeforeB);
    QVERIFY2(f->atRiskReason().contains(QLatin1String("failover")), qPrintable(f->atRiskReason()));
    QVERIFY(f->tokenA() != f->tokenB());
    const LockView sentinelView = f->view();
    QCOMPARE(sentinelView.token, f->tokenB());
    QCOMPARE(sentinelView.holding, 1);
    QCOMPARE(sentinelView.total, 1);
    QCOMPARE(sentinelView.status, LockStatus::Held);
    const QString text = f->holdersText();
    QVERIFY2(text.contains(QLatin1String("A believes it holds")) &&
                 text.contains(QLatin1String("B holds it")) && text.contains(QLatin1String("at risk")),
             qPrintable(text));
    // The timeline: A's and B's single-instance holds overlapped.
    int overlapping = 0;
    for (const DemoHold& h : m_sim->holds())
        if (h.resource == DemoFailover::resource() && h.fencing < 0) {
            QVERIFY(h.overlapped);
            ++overlapping;
        }
    QCOMPARE(overlapping, 2);

    // Redlock: B's attempt failed while A held a majority, and B never held the lock.
    QVERIFY(!refusedB.isEmpty());
    const auto outcome = refusedB.last().at(2).value<RedlockOutcome>();
    QCOMPARE(outcome.verdict, WriteVerdict::NotDone);
    QVERIFY(outcome.succeeded < outcome.needed);
    QVERIFY(acquiredB.isEmpty());
    QVERIFY(a->isHolding());
    QCOMPARE(a->lease().resource, DemoFailover::resource());
    // The core's view of the five masters: A's token on a majority, not contested.
    // Waited for as a whole: the masters' reads come in one by one, and the token can be shown by
    // the first while the others are not read yet (partial until a majority is).
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value(DemoFailover::resource())->token == a->lease().token &&
                                 monitor.locks().value(DemoFailover::resource())->status == LockStatus::Held,
                             10000);
    const LockView quorumView = monitor.locks().value(DemoFailover::resource());
    QCOMPARE(quorumView.status, LockStatus::Held);
    QVERIFY(quorumView.holding >= quorumView.needed);
    QVERIFY(quorumView.holding < 5); // master 1 forgot it

    // Every process goes with the session.
    QCOMPARE(groupPids.size(), 5);
    QVERIFY(processExists(groupPids.at(1)));  // the promoted replica still runs
    QVERIFY(!processExists(groupPids.at(0))); // the killed primary
    const QList<qint64> cluster = clusterPids();
    m_lab.reset();
    m_sim = nullptr;
    m_cluster.reset();
    for (qint64 pid : groupPids + cluster)
        QTRY_VERIFY(!processExists(pid));
}

void TestDemoFailover::cancelMidwayStopsEveryProcess()
{
    DemoFailover* f = m_sim->failover();
    QVERIFY(playUntil([f] { return f->isAcquiredByA() && f->waitAnswer() == 0; }, 90000));
    const QList<qint64> pids = f->group()->startedPids();
    QCOMPARE(pids.size(), 5);
    for (qint64 pid : pids)
        QVERIFY(processExists(pid));
    m_lab->scenarios()->cancel();
    QVERIFY(!m_lab->scenarios()->isRunning());
    QVERIFY(!f->isActive());
    for (qint64 pid : pids)
        QTRY_VERIFY(!processExists(pid));
    // The five masters are the session's, and stay.
    for (qint64 pid : clusterPids())
        QVERIFY(processExists(pid));
}

void TestDemoFailover::destroyingTheSimulationMidScenarioStopsEveryProcess()
{
    DemoFailover* f = m_sim->failover();
    // Mid-failover: the primary is gone, Sentinel has not promoted the replica yet.
    QVERIFY(playUntil([f] { return f->isAcquiredByA() && !f->group()->isPrimaryRunning(); }, 120000));
    QVERIFY(!f->report().has_value());
    const QList<qint64> pids = f->group()->startedPids() + clusterPids();
    m_lab.reset();
    m_sim = nullptr;
    m_cluster.reset();
    for (qint64 pid : pids)
        QTRY_VERIFY(!processExists(pid));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDemoFailover)

} // namespace tst_demofailover

#include "tst_demofailover.moc"
