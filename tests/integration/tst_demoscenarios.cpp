// SPDX-License-Identifier: Apache-2.0
// The demo's guided scenarios against a real five-master demo cluster. The runner's finished(ok), the
// simulation's overlap flags and counters and the storage's own verdicts are what the window shows;
// each test also checks them against a record of its own: double holds recomputed from the holds'
// start and end times, the lock's tokens read from the masters, and the storage's writes replayed
// against the fencing counters the masters keep.
#include "base/monotonicclock.h"
#include "demo/democlient.h"
#include "demo/democluster.h"
#include "demo/democonfig.h"
#include "demo/demofailover.h"
#include "demo/demolab.h"
#include "demo/demoscenariorunner.h"
#include "demo/demosimulation.h"
#include "monitor/lockmonitor.h"
#include "support/blockingcommand.h"
#include "support/demolabstart.h"
#include "support/processexists.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace tst_demoscenarios {

using namespace lockscope;

class TestDemoScenarios : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void backgroundClientsContendSafely();
    void aClientHoldsOnlyWhatTheSimulationKnowsItHolds();
    void minorityFailureCausesNoFailedAcquisitions();
    void majorityFailureFailsAcquisitions();
    void restartDuringHoldDoubleGrantsAndMarksAtRisk();
    void clientPauseStaleWriteRejectedWithFencing();
    void clientPauseStaleWriteAcceptedWithoutFencing();
    void clockDriftOverrunDropsTheWrite();
    void everyScenarioHasATitleAndACaption();
    void failoverWithoutQuorumAmidBackgroundContention();

private:
    // Runs a scenario to its end; returns (as expected, summary).
    QPair<bool, QString> play(DemoScenario scenario);
    // The simulation's and the storage's own verdicts against the test's record (QVERIFY inside).
    void verifyAgainstTheRecord();
    // `key` on every master that runs (a killed one gives an empty value).
    QByteArrayList readFromMasters(const QByteArray& key) const;

    QList<DemoWrite> m_writes; // every write the storage judged, as it was emitted

    std::unique_ptr<DemoCluster> m_cluster;
    std::unique_ptr<DemoLab> m_lab;
    DemoSimulation* m_sim = nullptr; // m_lab's
    LockScopeConfig m_config;
};

void TestDemoScenarios::init()
{
    test::startDemoLab(&m_cluster, &m_lab, &m_config);
    if (QTest::currentTestFailed())
        return;
    m_sim = m_lab->simulation();
    m_writes.clear();
    connect(m_sim->storage(), &DemoFencedStorage::written, m_sim,
            [this](const DemoWrite& w) { m_writes << w; });
    // What went wrong, in the test's output.
    connect(m_sim, &DemoSimulation::note, m_sim, [](const QString& text) {
        if (text.contains(QLatin1String("could not")) || text.contains(QLatin1String("VIOLATION")))
            qInfo("%s", qPrintable(text));
    });
    m_sim->start(m_config);
    QTRY_VERIFY_WITH_TIMEOUT(m_sim->allMastersUp(), 15000);
}

void TestDemoScenarios::cleanup()
{
    m_lab.reset();
    m_sim = nullptr;
    m_cluster.reset();
}

QByteArrayList TestDemoScenarios::readFromMasters(const QByteArray& key) const
{
    QByteArrayList out;
    for (int i = 0; i < m_config.masters.size(); ++i) {
        const RedisUrl& url = m_config.masters.at(i).url;
        out << (m_cluster->state(i) == DemoCluster::MasterState::Running
                    ? lockscope::test::blockingCommand(url.port(), {"GET", key}, url.password()).string
                    : QByteArray());
    }
    return out;
}

void TestDemoScenarios::verifyAgainstTheRecord()
{
    // Double holds from the times alone: a hold that began while another client's hold of the same
    // resource had not ended (an open hold has not ended).
    const QList<DemoHold>& holds = m_sim->holds();
    QSet<qsizetype> involved;
    int doubleHolds = 0;
    for (qsizetype i = 0; i < holds.size(); ++i) {
        bool overlaps = false;
        for (qsizetype j = 0; j < holds.size(); ++j) {
            const DemoHold& h = holds[i];
            const DemoHold& o = holds[j];
            if (i == j || o.client == h.client || o.resource != h.resource)
                continue;
            const bool earlier = o.startMs < h.startMs || (o.startMs == h.startMs && j < i);
            if (earlier && (o.isOpen() || h.startMs < o.endMs)) {
                overlaps = true;
                involved << i << j;
            }
        }
        doubleHolds += overlaps ? 1 : 0;
    }
    QCOMPARE(m_sim->counters().doubleHolds, doubleHolds);
    for (qsizetype i = 0; i < holds.size(); ++i)
        QVERIFY2(holds[i].overlapped == involved.contains(i),
                 qPrintable(QStringLiteral("%1's hold of %2 from %3 to %4 ms: flagged %5, recomputed %6")
                                .arg(DemoSimulation::clientName(holds[i].client),
                                     QString::fromUtf8(holds[i].resource))
                                .arg(holds[i].startMs - m_sim->originMs())
                                .arg(holds[i].endMs - m_sim->originMs())
                                .arg(holds[i].overlapped)
                                .arg(involved.contains(i))));

    // The storage's verdicts replayed: stale is a number below the highest accepted before it; with
    // fencing on a stale write is refused, with it off everything goes through.
    const bool fencing = m_sim->storage()->fencing();
    QHash<QByteArray, qint64> highest; // accepted
    QHash<QByteArray, qint64> sent;    // accepted or not
    QHash<QByteArray, int> acceptedPer;
    int accepted = 0;
    int staleAccepted = 0;
    for (const DemoWrite& w : std::as_const(m_writes)) {
        const bool stale = w.fencing < highest.value(w.resource, 0);
        QCOMPARE(w.stale, stale);
        QCOMPARE(w.accepted, !fencing || !stale);
        sent[w.resource] = qMax(sent.value(w.resource, 0), w.fencing);
        if (w.accepted) {
            highest[w.resource] = qMax(highest.value(w.resource, 0), w.fencing);
            ++acceptedPer[w.resource];
            ++accepted;
            staleAccepted += stale ? 1 : 0;
        }
    }
    QCOMPARE(m_sim->storage()->accepted(), accepted);
    // The counters keep stale writes that got through apart from the good ones.
    QCOMPARE(m_sim->counters().writesAccepted, accepted - staleAccepted);
    QCOMPARE(m_sim->counters().staleAccepted, staleAccepted);
    QCOMPARE(m_sim->counters().staleRejected, int(m_writes.size()) - accepted);
    // Every number a writer sent was issued by the masters' fencing counter (which only grows), and
    // with fencing on the accepted ones are distinct and rising: no more of them than numbers issued.
    for (auto it = sent.cbegin(); it != sent.cend(); ++it) {
        qint64 issued = 0;
        for (const QByteArray& v : readFromMasters(DemoSimulation::taskFor(it.key(), 0, 0).counterKey))
            issued = qMax(issued, v.toLongLong());
        QVERIFY2(it.value() <= issued,
                 qPrintable(QStringLiteral("%1: a write with fencing %2, the masters issued up to %3")
                                .arg(QString::fromUtf8(it.key()))
                                .arg(it.value())
                                .arg(issued)));
        if (fencing)
            QVERIFY2(acceptedPer.value(it.key()) <= issued,
                     qPrintable(QStringLiteral("%1: %2 writes accepted, %3 numbers issued")
                                    .arg(QString::fromUtf8(it.key()))
                                    .arg(acceptedPer.value(it.key()))
                                    .arg(issued)));
    }
}

QPair<bool, QString> TestDemoScenarios::play(DemoScenario scenario)
{
    QSignalSpy finished(m_lab->scenarios(), &DemoScenarioRunner::finished);
    m_lab->scenarios()->run(scenario);
    if (!finished.wait(int(lockscope::test::upperBoundMs(90000))))
        return {false, QStringLiteral("the scenario did not finish")};
    return {finished.at(0).at(1).toBool(), finished.at(0).at(2).toString()};
}

void TestDemoScenarios::backgroundClientsContendSafely()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_sim->counters().acquisitions >= 8, 60000);
    const DemoCounters& c = m_sim->counters();
    QCOMPARE(c.failures, 0);
    QCOMPARE(c.violations(), 0);
    QCOMPARE(c.staleRejected, 0);
    QVERIFY(c.writesAccepted > 0);
    // Every hold on the same resource is disjoint from every other client's.
    const QList<DemoHold>& holds = m_sim->holds();
    for (const DemoHold& h : holds)
        QVERIFY(!h.overlapped);
    verifyAgainstTheRecord();
}

void TestDemoScenarios::aClientHoldsOnlyWhatTheSimulationKnowsItHolds()
{
    // The scenarios wait for holds() and then judge the simulation's holds: between the quorum's yes
    // and the fencing number there is a round trip in which the client has the lease but the
    // simulation has no hold yet (a sanitizer build under load judged there: "A no longer held it").
    DemoClient* a = m_sim->client(DemoSimulation::clientA);
    const QByteArray resource = "lock:demo:known";
    const auto simulationHolds = [this, &resource] {
        for (const DemoHold& h : m_sim->holds())
            if (h.client == DemoSimulation::clientA && h.resource == resource && h.isOpen())
                return true;
        return false;
    };
    int looks = 0;
    int held = 0;
    int unknown = 0;
    QTimer look; // every pass of the event loop, so also between the two replies
    connect(&look, &QTimer::timeout, &look, [&] {
        ++looks;
        if (a->holds(resource)) {
            ++held;
            unknown += simulationHolds() ? 0 : 1;
        }
    });
    look.start(0);
    for (int round = 0; round < 5; ++round) {
        a->run(DemoSimulation::taskFor(resource, 4000, 200));
        QTRY_VERIFY_WITH_TIMEOUT(a->holds(resource), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(a->state() == DemoClient::State::Idle, 10000);
        QVERIFY(!a->holds(resource));
    }
    look.stop();
    QVERIFY2(held > 0 && unknown == 0,
             qPrintable(QStringLiteral("%1 looks, %2 holding, %3 unknown to the simulation")
                            .arg(looks)
                            .arg(held)
                            .arg(unknown)));
}

void TestDemoScenarios::minorityFailureCausesNoFailedAcquisitions()
{
    const auto [ok, summary] = play(DemoScenario::MinorityFailure);
    QVERIFY2(ok, qPrintable(summary));
    const DemoCounters& now = m_sim->counters();
    const DemoCounters& before = m_lab->scenarios()->baseline();
    QCOMPARE(now.failures - before.failures, 0);
    QVERIFY(now.acquisitions > before.acquisitions);
    QCOMPARE(m_cluster->state(3), DemoCluster::MasterState::Killed);
    QCOMPARE(m_cluster->state(4), DemoCluster::MasterState::Killed);
    QCOMPARE(m_sim->outages().size(), 2);
    verifyAgainstTheRecord();
}

void TestDemoScenarios::majorityFailureFailsAcquisitions()
{
    const auto [ok, summary] = play(DemoScenario::MajorityFailure);
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY(m_sim->counters().failures > m_lab->scenarios()->baseline().failures);
    for (const DemoHold& h : m_sim->holds())
        QVERIFY(h.startMs <= m_lab->scenarios()->faultAtMs() + 500);
    verifyAgainstTheRecord();
}

void TestDemoScenarios::restartDuringHoldDoubleGrantsAndMarksAtRisk()
{
    // The monitor the window would run, on its own connections.
    MasterSet masters(m_config.masters);
    LockMonitor monitor(&masters, m_config);
    bool atRisk = false;
    QString reason;
    connect(&monitor, &LockMonitor::locksChanged, this, [&](const LockBatch& batch) {
        for (const QList<SharedLockView>* list : {&batch.added, &batch.changed})
            for (const LockView& v : *list)
                if (v.resource == "lock:demo:ledger" && v.atRisk) {
                    atRisk = true;
                    reason = v.atRiskReason();
                }
    });
    masters.open();
    monitor.start();

    const auto [ok, summary] = play(DemoScenario::RestartDuringHold);
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY2(atRisk, "the monitor never marked lock:demo:ledger at risk");
    QVERIFY(reason.contains(QLatin1String("restarted")));
    // Both A and B hold the ledger at once, and the simulation counts it.
    int openHolders = 0;
    for (const DemoHold& h : m_sim->holds())
        if (h.resource == "lock:demo:ledger" && h.isOpen()) {
            QVERIFY(h.overlapped);
            ++openHolders;
        }
    QCOMPARE(openHolders, 2);
    QVERIFY(m_sim->counters().doubleHolds >= 1);
    // The masters' side of it: A's token and B's each on some masters (all five between them), B's
    // on a quorum, while both clients believe they hold the ledger.
    const QByteArray tokenA = m_sim->client(DemoSimulation::clientA)->lease().token;
    const QByteArray tokenB = m_sim->client(DemoSimulation::clientB)->lease().token;
    QVERIFY(!tokenA.isEmpty() && !tokenB.isEmpty() && tokenA != tokenB);
    const QByteArrayList onMasters = readFromMasters("lock:demo:ledger");
    QVERIFY2(onMasters.count(tokenA) >= 1 && onMasters.count(tokenB) >= 3 &&
                 onMasters.count(tokenA) + onMasters.count(tokenB) == 5,
             qPrintable(QString::fromUtf8(onMasters.join(' '))));
    QVERIFY(m_sim->client(DemoSimulation::clientA)->isHolding());
    QVERIFY(m_sim->client(DemoSimulation::clientB)->isHolding());
    // The quorum view now shows the ledger contested (B's token on 3, A's on 2 masters).
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:demo:ledger")->status == LockStatus::Contested,
                             10000);
    // And A's late write, with its older fencing number, is refused.
    QSignalSpy written(m_sim, &DemoSimulation::written);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(written.cbegin(), written.cend(),
                                         [](const QList<QVariant>& args) {
                                             const auto w = args.at(0).value<DemoWrite>();
                                             return w.client == QLatin1String("A");
                                         }),
                             30000);
    for (const QList<QVariant>& args : std::as_const(written)) {
        const auto w = args.at(0).value<DemoWrite>();
        if (w.client == QLatin1String("A")) {
            QVERIFY(w.stale);
            QVERIFY(!w.accepted);
        }
    }
    verifyAgainstTheRecord();
}

void TestDemoScenarios::clientPauseStaleWriteRejectedWithFencing()
{
    QVERIFY(m_sim->storage()->fencing());
    const auto [ok, summary] = play(DemoScenario::ClientPause);
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY(m_sim->counters().staleRejected > m_lab->scenarios()->baseline().staleRejected);
    QCOMPARE(m_sim->counters().staleAccepted, 0);
    // A believed it held the lock through its pause: its hold overlaps B's.
    QVERIFY(m_sim->counters().doubleHolds >= 1);
    // Issue #41: the result line said "rejected" beside a red "violations 1". It tells both parts
    // now, in the counters' words, from the same numbers.
    QVERIFY(m_lab->scenarios()->measured().doubleHolds >= 1);
    QVERIFY2(summary.contains(QLatin1String("two holders at once")) &&
                 summary.contains(QLatin1String("rejected")),
             qPrintable(summary));
    verifyAgainstTheRecord();
}

void TestDemoScenarios::clientPauseStaleWriteAcceptedWithoutFencing()
{
    m_sim->storage()->setFencing(false);
    const auto [ok, summary] = play(DemoScenario::ClientPause);
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY(m_sim->counters().staleAccepted >= 1);
    QVERIFY(m_sim->counters().violations() >= 1);
    QCOMPARE(m_sim->storage()->violations(), m_sim->counters().staleAccepted);
    verifyAgainstTheRecord();
}

void TestDemoScenarios::clockDriftOverrunDropsTheWrite()
{
    const auto [ok, summary] = play(DemoScenario::ClockDrift);
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY(m_sim->counters().overruns >= 1);
    const DemoHold* a = nullptr;
    for (const DemoHold& h : m_sim->holds())
        if (h.client == DemoSimulation::clientA && h.resource == "lock:demo:drift")
            a = &h;
    QVERIFY(a);
    // validity = ttl - elapsed - (ttl * 0.01 + 2): at most 2000 - 22 ms.
    QVERIFY(a->validityMs <= 2000 - 22);
    QVERIFY(a->validityMs > 1500);
    QCOMPARE(a->endMs, a->validUntilMs);
    verifyAgainstTheRecord();
}

void TestDemoScenarios::everyScenarioHasATitleAndACaption()
{
    const QList<DemoScenario> all = allDemoScenarios();
    QVERIFY(all.contains(DemoScenario::FailoverWithoutQuorum));
    QSet<QString> titles;
    for (DemoScenario s : all) {
        QVERIFY(!demoScenarioTitle(s).isEmpty());
        QVERIFY(!demoScenarioCaption(s).isEmpty());
        titles.insert(demoScenarioTitle(s));
    }
    QCOMPARE(titles.size(), all.size());
}

void TestDemoScenarios::failoverWithoutQuorumAmidBackgroundContention()
{
    // As the window plays it: the background clients keep contending on their own resources.
    QVERIFY(m_sim->isBackgroundRunning());
    // When a Redlock master went down during the run: the Redlock half restarts master 1 empty.
    QList<qint64> killedAtMs;
    QObject watching; // the connection ends with this function (cleanup kills the masters)
    connect(m_sim->cluster(), &DemoCluster::masterStateChanged, &watching,
            [&killedAtMs](int, DemoCluster::MasterState state) {
                if (state == DemoCluster::MasterState::Killed)
                    killedAtMs << monotonicMs();
            });
    const auto [ok, summary] = play(DemoScenario::FailoverWithoutQuorum);
    QVERIFY2(ok, qPrintable(summary));
    QVERIFY(!killedAtMs.isEmpty());
    const DemoFailover* f = m_sim->failover();
    QCOMPARE(f->waitAnswer(), 0);
    QVERIFY(f->reportLostA());
    QCOMPARE(f->view().token, f->tokenB());
    // On the scenario's own resource the only two holders at once are the Sentinel part's A and B:
    // the Redlock half's quorum refused B.
    const QList<DemoHold>& holds = m_sim->holds();
    int failoverOverlaps = 0;
    for (const DemoHold& h : holds)
        if (h.overlapped && h.resource == DemoFailover::resource()) {
            QCOMPARE(h.fencing, qint64(-1));
            ++failoverOverlaps;
        }
    QCOMPARE(failoverOverlaps, 2);
    // The restart is the same hazard for the background clients, and a real one (a CI run saw it): a
    // background lock held on exactly three masters, master 1 among them, is left with two, and the
    // next client gets a quorum. Such an overlap is allowed only where the restart explains it: the
    // first hold was taken before a master went down and the second after.
    int backgroundDoubleHolds = 0;
    for (const DemoHold& later : holds) {
        if (later.resource == DemoFailover::resource())
            continue;
        for (const DemoHold& earlier : holds) {
            if (earlier.client == later.client || earlier.resource != later.resource ||
                earlier.startMs >= later.startMs || (!earlier.isOpen() && earlier.endMs <= later.startMs))
                continue;
            const bool explained = std::any_of(killedAtMs.cbegin(), killedAtMs.cend(), [&](qint64 at) {
                return earlier.startMs < at && at < later.startMs;
            });
            QVERIFY2(explained, qPrintable(QStringLiteral("%1 and %2 held %3 at once with no restart between "
                                                          "their acquisitions")
                                               .arg(DemoSimulation::clientName(earlier.client),
                                                    DemoSimulation::clientName(later.client),
                                                    QString::fromUtf8(later.resource))));
            ++backgroundDoubleHolds;
            break;
        }
    }
    if (backgroundDoubleHolds > 0)
        qInfo("%d background double hold(s), each explained by master 1's restart", backgroundDoubleHolds);
    QCOMPARE(m_sim->counters().doubleHolds, 1 + backgroundDoubleHolds);
    // Issue #41: the result line's "two holders" stood beside a scenario count of 0 (the Redlock
    // half's fault restarted the count). Both halves are counted.
    QCOMPARE(m_lab->scenarios()->measured().doubleHolds, 1 + backgroundDoubleHolds);
    QVERIFY2(summary.contains(QLatin1String("two holders")), qPrintable(summary));
    verifyAgainstTheRecord();
    // A finished run keeps the group (the view stays on screen); the next scenario stops it.
    QVERIFY(f->isActive());
    const QList<qint64> pids = f->group()->startedPids();
    m_lab->scenarios()->run(DemoScenario::MinorityFailure);
    QVERIFY(!f->isActive());
    for (qint64 pid : pids)
        QTRY_VERIFY(!lockscope::test::processExists(pid));
    m_lab->scenarios()->cancel();
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDemoScenarios)

} // namespace tst_demoscenarios

#include "tst_demoscenarios.moc"
