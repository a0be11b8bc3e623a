// SPDX-License-Identifier: Apache-2.0
#include "demo/demosimulation.h"
#include "support/demolabstart.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "trace/locktracer.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_tracedemo {

using namespace lockscope;
using namespace lockscope::test;

// A stale Redlock holder, traced (issue #43): the demo's client pause on its five real masters. A
// takes the report lock, pauses past its lease, B takes the lock, and A, awake, writes and releases
// with its old token. The tracer on all five masters must show A's release as one "with a token
// that no longer holds it", and nothing of B's as stale. The truth is the simulation's own record
// of its holds (DemoSimulation::holds), which the tracer never sees.
class TestTraceDemo : public QObject
{
    Q_OBJECT

private slots:
    void aPausedHoldersReleaseIsStale();
};

void TestTraceDemo::aPausedHoldersReleaseIsStale()
{
    std::unique_ptr<DemoCluster> cluster;
    std::unique_ptr<DemoLab> lab;
    LockScopeConfig config;
    startDemoLab(&cluster, &lab, &config);
    if (QTest::currentTestFailed())
        return;
    DemoSimulation* sim = lab->simulation();
    sim->start(config);
    QTRY_VERIFY_WITH_TIMEOUT(sim->allMastersUp(), 15000);

    const QByteArray resource = demoScenarioResource(DemoScenario::ClientPause);
    QList<LockTracer::Target> targets;
    for (int i = 0; i < config.masters.size(); ++i)
        targets << LockTracer::Target{i, config.masters.at(i)};
    TraceLimits limits;
    limits.durationMs = TraceLimits::maxDurationMs;
    LockTracer tracer(resource, targets, limits);
    QList<TracedCommand> commands;
    int monitoring = 0;
    connect(&tracer, &LockTracer::traced, this, [&commands](const TracedCommand& c) { commands << c; });
    connect(&tracer, &LockTracer::masterMonitoring, this, [&monitoring](int) { ++monitoring; });
    tracer.start();
    QTRY_COMPARE_WITH_TIMEOUT(monitoring, int(targets.size()), 10000);

    QSignalSpy finished(lab->scenarios(), &DemoScenarioRunner::finished);
    lab->scenarios()->run(DemoScenario::ClientPause);
    QVERIFY2(finished.wait(int(upperBoundMs(240000))), "the scenario did not finish");
    QTest::qWait(500); // the last commands reach the tracer
    tracer.stop();

    // The oracle: A's and B's holds of the report lock, as the simulation recorded them.
    QByteArray tokenA;
    QByteArray tokenB;
    for (const DemoHold& h : sim->holds()) {
        if (h.resource != resource)
            continue;
        if (h.client == DemoSimulation::clientA)
            tokenA = h.token;
        else if (h.client == DemoSimulation::clientB)
            tokenB = h.token;
    }
    QVERIFY(!tokenA.isEmpty());
    QVERIFY2(!tokenB.isEmpty(), "B never held the lock: the scenario did not pause A past its lease");
    int staleA = 0;
    QStringList seen;
    for (const TracedCommand& c : std::as_const(commands)) {
        seen << traceMeaningName(c.meaning) + QLatin1Char(' ') + QString::fromLatin1(c.token.left(12));
        if (c.meaning == TraceMeaning::StaleRelease || c.meaning == TraceMeaning::StaleExtend) {
            QVERIFY2(c.token == tokenA, qPrintable(QStringLiteral("a stale command of another token: ") +
                                                   seen.join(QLatin1String(", "))));
            staleA += c.meaning == TraceMeaning::StaleRelease;
        }
    }
    // A's release reached every master that was up: at least a quorum of them say so.
    QVERIFY2(staleA >= config.masters.size() / 2 + 1, qPrintable(seen.join(QLatin1String(", "))));
    QVERIFY(std::any_of(commands.cbegin(), commands.cend(), [&](const TracedCommand& c) {
        return c.meaning == TraceMeaning::Acquired && c.token == tokenB;
    }));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTraceDemo)

} // namespace tst_tracedemo

#include "tst_tracedemo.moc"
