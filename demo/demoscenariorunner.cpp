// SPDX-License-Identifier: Apache-2.0
#include "demo/demoscenariorunner.h"

#include "base/monotonicclock.h"
#include "demo/democlient.h"
#include "demo/demofailover.h"
#include "demo/demosimulation.h"

namespace lockscope {

namespace {

const QByteArray ledger = demoScenarioResource(DemoScenario::RestartDuringHold);
const QByteArray report = demoScenarioResource(DemoScenario::ClientPause);
const QByteArray drift = demoScenarioResource(DemoScenario::ClockDrift);

constexpr int healTimeoutMs = 20000;

const DemoHold* lastHold(const DemoSimulation* sim, int client, const QByteArray& resource)
{
    const QList<DemoHold>& holds = sim->holds();
    for (qsizetype i = holds.size() - 1; i >= 0; --i)
        if (holds.at(i).client == client && holds.at(i).resource == resource)
            return &holds.at(i);
    return nullptr;
}

} // namespace

DemoScenarioRunner::DemoScenarioRunner(DemoSimulation* simulation, QObject* parent)
    : QObject(parent), m_sim(simulation)
{
    connect(m_sim, &DemoSimulation::stopping, this, &DemoScenarioRunner::cancel);
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_condition && m_condition()) {
            m_poll.stop();
            m_condition = nullptr;
            m_error = nullptr;
            advance();
        } else if (const QString error = m_error ? m_error() : QString(); !error.isEmpty()) {
            m_poll.stop();
            m_condition = nullptr;
            m_error = nullptr;
            fail(error);
        } else if (monotonicMs() > m_deadlineMs) {
            m_poll.stop();
            m_condition = nullptr;
            m_error = nullptr;
            fail(m_failure);
        }
    });
}

void DemoScenarioRunner::run(DemoScenario scenario)
{
    cancel();
    if (!m_sim->isStarted())
        return;
    m_scenario = scenario;
    m_running = true;
    m_context = new QObject(this);
    m_baseline = m_sim->counters();
    m_faultAtMs = monotonicMs();
    m_measuring = false;
    m_measuredEnd.reset();
    m_sim->client(DemoSimulation::clientA)->stop();
    m_sim->client(DemoSimulation::clientB)->stop();
    switch (scenario) {
    case DemoScenario::MinorityFailure:
        buildMinority();
        break;
    case DemoScenario::MajorityFailure:
        buildMajority();
        break;
    case DemoScenario::RestartDuringHold:
        buildRestart();
        break;
    case DemoScenario::ClientPause:
        buildPause();
        break;
    case DemoScenario::ClockDrift:
        buildDrift();
        break;
    case DemoScenario::FailoverWithoutQuorum:
        buildFailover();
        break;
    }
    emit started(scenario, demoScenarioCaption(scenario));
    m_at = -1;
    advance();
}

void DemoScenarioRunner::cancel()
{
    const bool failover = m_running && m_scenario == DemoScenario::FailoverWithoutQuorum;
    if (m_measuring)
        m_measuredEnd = m_sim->counters();
    m_measuring = false;
    reset();
    // Its processes are worth keeping only for the view of a finished run; one cut short, or another
    // scenario starting, ends them.
    if (failover || m_sim->failover()->isActive()) {
        m_sim->failover()->stop();
        m_sim->endOutsideHolds(DemoFailover::resource(), tr("the scenario was cancelled"));
    }
}

void DemoScenarioRunner::reset()
{
    ++m_generation;
    delete m_context;
    m_context = nullptr;
    m_poll.stop();
    m_condition = nullptr;
    m_error = nullptr;
    m_steps.clear();
    m_running = false;
}

void DemoScenarioRunner::advance()
{
    if (!m_running)
        return;
    ++m_at;
    if (m_at >= m_steps.size()) {
        m_running = false;
        return;
    }
    const quint64 generation = m_generation;
    // A copy: the step may cancel the scenario (and so clear m_steps) while it runs.
    const Step step = m_steps.at(m_at);
    step([this, generation] {
        if (generation == m_generation)
            advance();
    });
}

DemoCounters DemoScenarioRunner::measured() const
{
    if (!hasMeasured())
        return {};
    return m_measuredEnd.value_or(m_sim->counters()).since(m_baseline);
}

void DemoScenarioRunner::fail(const QString& why)
{
    if (m_measuring)
        m_measuredEnd = m_sim->counters();
    m_measuring = false;
    const DemoScenario scenario = m_scenario;
    cancel();
    emit finished(scenario, false, why);
}

void DemoScenarioRunner::act(std::function<void()> action)
{
    add([action](const Next& next) {
        action();
        next();
    });
}

void DemoScenarioRunner::after(int ms)
{
    add([this, ms](const Next& next) { QTimer::singleShot(ms, this, next); });
}

void DemoScenarioRunner::watch(int ms)
{
    after(int(ms * m_watchScale));
}

void DemoScenarioRunner::when(std::function<bool()> condition, int timeoutMs, QString failure)
{
    add([this, condition, timeoutMs, failure](const Next& next) {
        if (condition())
            return next();
        m_condition = condition;
        m_deadlineMs = monotonicMs() + timeoutMs;
        m_failure = failure;
        m_poll.start();
    });
}

void DemoScenarioRunner::when(std::function<bool()> condition, std::function<QString()> error, int timeoutMs,
                              QString failure)
{
    add([this, condition, error, timeoutMs, failure](const Next& next) {
        if (condition())
            return next();
        m_condition = condition;
        m_error = error;
        m_deadlineMs = monotonicMs() + timeoutMs;
        m_failure = failure;
        m_poll.start();
    });
}

void DemoScenarioRunner::say(QString text)
{
    act([this, text] { emit progress(text); });
}

void DemoScenarioRunner::waitForARound()
{
    // A slow machine (a laptop on stage, a sanitizer build among other tests) may not finish a
    // single round in the time watched: the result waits for one, rather than telling a count of
    // nothing ("0 failed, 0 succeeded") as if it were the outcome.
    when(
        [this] {
            const DemoCounters counted = measured();
            return counted.acquisitions + counted.failures > 0;
        },
        30000, tr("no client finished an attempt to acquire within 30 s"));
}

void DemoScenarioRunner::markFault()
{
    act([this] {
        // The first fault of a run starts its count: a scenario of two parts (the failover's
        // Sentinel and Redlock halves) tells both parts' counts, as its result line does.
        if (m_measuring)
            return;
        m_baseline = m_sim->counters();
        m_faultAtMs = monotonicMs();
        m_measuring = true;
        m_measuredEnd.reset();
    });
}

void DemoScenarioRunner::heal()
{
    act([this] { m_sim->healMasters(); });
    when([this] { return m_sim->allMastersUp(); }, healTimeoutMs, tr("the masters did not come back up"));
}

void DemoScenarioRunner::finishWith(std::function<QPair<bool, QString>()> verdict)
{
    act([this, verdict] {
        // The counting ends here: the result line and the panel's scenario counters both say what
        // happened up to this moment, however long the cluster stays broken afterwards.
        if (m_measuring)
            m_measuredEnd = m_sim->counters();
        m_measuring = false;
        const auto [ok, summary] = verdict();
        const DemoScenario scenario = m_scenario;
        reset();
        emit finished(scenario, ok, summary);
    });
}

void DemoScenarioRunner::buildMinority()
{
    heal();
    say(tr("killing masters 4 and 5"));
    act([this] {
        m_sim->cluster()->kill(3);
        m_sim->cluster()->kill(4);
    });
    markFault();
    watch(10000);
    waitForARound();
    finishWith([this] {
        const DemoCounters counted = measured();
        const int acquired = counted.acquisitions;
        const int failed = counted.failures;
        return qMakePair(acquired > 0 && failed == 0,
                         tr("With 3 of 5 masters: %1 acquisitions, %2 failed for want of a quorum.")
                             .arg(acquired)
                             .arg(failed));
    });
}

void DemoScenarioRunner::buildMajority()
{
    heal();
    say(tr("killing masters 3, 4 and 5"));
    act([this] {
        for (int m : {2, 3, 4})
            m_sim->cluster()->kill(m);
    });
    // A round already answered when the kill came may still complete: count from a moment later.
    after(500);
    markFault();
    watch(5500);
    waitForARound();
    finishWith([this] {
        const DemoCounters counted = measured();
        const int failed = counted.failures;
        const int acquired = counted.acquisitions;
        return qMakePair(
            failed > 0 && acquired == 0,
            tr("With 2 of 5 masters: %1 acquisitions failed, %2 succeeded.").arg(failed).arg(acquired));
    });
}

void DemoScenarioRunner::buildRestart()
{
    DemoClient* a = m_sim->client(DemoSimulation::clientA);
    DemoClient* b = m_sim->client(DemoSimulation::clientB);
    heal();
    say(tr("masters 4 and 5 go down; A takes %1 on masters 1-3").arg(QString::fromUtf8(ledger)));
    act([this] {
        m_sim->cluster()->kill(3);
        m_sim->cluster()->kill(4);
    });
    when([this] { return !m_sim->isMasterUp(3) && !m_sim->isMasterUp(4); }, 10000,
         tr("masters 4 and 5 did not go down"));
    // A works for most of its TTL: the restart, the wait for the masters and B's try must all fall
    // inside A's hold, and a loaded machine (a sanitizer build under ctest -j2) stretches them. The
    // scenario ends once B holds; A's hold going on past that is the double grant it shows.
    act([a] {
        // With two masters down every one of the other three has to answer in time: one slow
        // answer (a busy laptop on stage) is tried again, not the end of the scenario.
        DemoTask t = DemoSimulation::taskFor(ledger, 30000, 25000);
        t.keepTryingMs = 8000;
        a->run(t);
    });
    when([a] { return a->holds(ledger); }, 10000, tr("A did not get the lock"));
    after(1500); // long enough for the monitor to see the lock on master 3
    say(tr("master 3 restarts without persistence (new run_id, empty); 4 and 5 come back empty"));
    act([this] {
        for (int m : {2, 3, 4})
            m_sim->cluster()->restart(m);
    });
    markFault();
    when([this] { return m_sim->allMastersUp(); }, healTimeoutMs, tr("the masters did not come back up"));
    after(3000); // long enough to see the at-risk mark in the table before B hides it
    say(tr("B asks for %1").arg(QString::fromUtf8(ledger)));
    act([b] {
        DemoTask t = DemoSimulation::taskFor(ledger, 10000, 4000);
        // Three masters just back must all answer in time: a slow one is tried again. A's hold
        // (25 s of work) outlasts these tries even on a loaded machine.
        t.keepTryingMs = 8000;
        b->run(t);
    });
    when([b] { return b->holds(ledger); }, 15000, tr("B did not get the lock: no double grant this time"));
    finishWith([this] {
        const DemoHold* hb = lastHold(m_sim, DemoSimulation::clientB, ledger);
        const bool both = hb && hb->overlapped;
        return qMakePair(both, both ? tr("Double grant: A and B both hold %1 (fencing %2 and %3).")
                                          .arg(QString::fromUtf8(ledger))
                                          .arg(m_sim->client(DemoSimulation::clientA)->fencing())
                                          .arg(hb->fencing)
                                    : tr("B got the lock, but A no longer held it."));
    });
}

void DemoScenarioRunner::buildPause()
{
    DemoClient* a = m_sim->client(DemoSimulation::clientA);
    DemoClient* b = m_sim->client(DemoSimulation::clientB);
    heal();
    act([a] {
        DemoTask t = DemoSimulation::taskFor(report, 3000, 300);
        t.pauseBeforeWriteMs = 7000;
        t.keepTryingMs = 8000; // a slow answer is tried again, as in the restart scenario
        a->run(t);
    });
    when([a] { return a->holds(report); }, 10000, tr("A did not get the lock"));
    markFault();
    after(1000);
    act([b] {
        DemoTask t = DemoSimulation::taskFor(report, 3000, 1000);
        t.keepTryingMs = 9000;
        b->run(t);
    });
    auto aWrote = std::make_shared<bool>(false);
    auto aWrite = std::make_shared<DemoWrite>();
    connect(m_sim, &DemoSimulation::written, m_context, [aWrote, aWrite, this](const DemoWrite& w) {
        if (w.client == DemoSimulation::clientName(DemoSimulation::clientA) && w.resource == report &&
            w.atMs > m_faultAtMs && !*aWrote) {
            *aWrote = true;
            *aWrite = w;
        }
    });
    when([aWrote] { return *aWrote; }, 20000, tr("A never wrote"));
    finishWith([this, aWrite] {
        const bool fencing = m_sim->storage()->fencing();
        const bool asExpected = aWrite->stale && (fencing ? !aWrite->accepted : aWrite->accepted);
        // In the counters' words: two holders at once is the lock's failure; what the storage did
        // with the stale write is fencing's part.
        const QString twoHolders =
            measured().doubleHolds > 0
                ? tr("A's lease ran out during its pause and B took the lock: two holders "
                     "at once. ")
                : QString();
        const QString what =
            !aWrite->stale ? tr("A's write was not stale (B never got the lock in time).")
            : aWrite->accepted
                ? tr("Fencing off: A's stale write (fencing %1 < %2) was "
                     "ACCEPTED: the storage took a write from a holder that no longer held the lock.")
                      .arg(aWrite->fencing)
                      .arg(aWrite->highestSeen)
                : tr("Fencing on: A's stale write (fencing %1 < %2) was rejected: the storage "
                     "stayed consistent.")
                      .arg(aWrite->fencing)
                      .arg(aWrite->highestSeen);
        return qMakePair(asExpected,
                         QString(twoHolders + what)); // a QString: a builder would outlive its parts
    });
}

void DemoScenarioRunner::buildDrift()
{
    DemoClient* a = m_sim->client(DemoSimulation::clientA);
    DemoClient* b = m_sim->client(DemoSimulation::clientB);
    heal();
    act([a] { a->run(DemoSimulation::taskFor(drift, 2000, 2300)); });
    when([a] { return a->holds(drift); }, 10000, tr("A did not get the lock"));
    markFault();
    act([this, a] {
        const RedlockLease& l = a->lease();
        const qint64 allowance = l.ttlMs / 100 + 2;
        emit progress(
            tr("A: validity = %1 ttl - %2 elapsed - %3 drift allowance = %4 ms; its work takes 2300 ms")
                .arg(l.ttlMs)
                .arg(l.ttlMs - l.validityMs - allowance)
                .arg(allowance)
                .arg(l.validityMs));
    });
    after(300);
    act([b] {
        DemoTask t = DemoSimulation::taskFor(drift, 2000, 800);
        t.keepTryingMs = 6000;
        b->run(t);
    });
    when([b] { return b->holds(drift); }, 15000, tr("B did not get the lock"));
    when([this] { return m_sim->counters().overruns > m_baseline.overruns; }, 5000,
         tr("A's work did not overrun"));
    finishWith([this] {
        const DemoHold* ha = lastHold(m_sim, DemoSimulation::clientA, drift);
        const DemoHold* hb = lastHold(m_sim, DemoSimulation::clientB, drift);
        const bool ok = ha && hb && !ha->overlapped && !hb->overlapped && ha->endMs >= 0;
        if (ok)
            return qMakePair(true, tr("A's work overran its %1 ms validity: it dropped its write. B got the "
                                      "lock %2 ms after A stopped trusting it: no overlap.")
                                       .arg(ha->validityMs)
                                       .arg(hb->startMs - ha->endMs));
        // Each way this can go wrong is told apart: a demo that says "overlapped" must mean it.
        if (!ha || !hb)
            return qMakePair(
                false, tr("no hold of %1 on %2 was recorded.")
                           .arg(ha ? QStringLiteral("B") : QStringLiteral("A"), QString::fromUtf8(drift)));
        if (ha->endMs < 0)
            return qMakePair(false, tr("A still held %1 (valid until +%2 ms) when B got it.")
                                        .arg(QString::fromUtf8(drift))
                                        .arg(ha->validUntilMs - hb->startMs));
        return qMakePair(false,
                         tr("A and B overlapped on %1: A trusted it until +%2 ms, B had it from +0 ms.")
                             .arg(QString::fromUtf8(drift))
                             .arg(ha->endMs - hb->startMs));
    });
}

void DemoScenarioRunner::buildFailover()
{
    buildFailoverSentinelPart();
    buildFailoverRedlockPart();
    finishWith([this] {
        const DemoFailover* f = m_sim->failover();
        const bool sentinelDoubleGrant =
            f->waitAnswer() == 0 && f->reportLostA() && f->wasMarkedAtRisk() && f->viewShows(f->tokenB());
        const DemoClient* a = m_sim->client(DemoSimulation::clientA);
        const bool quorumRefused = m_refusedB && !m_refusedB->ok() && a->holds(DemoFailover::resource());
        const QString sentinel =
            sentinelDoubleGrant
                ? tr("Sentinel: WAIT answered 0, the failover lost A's lock and B took it on the promoted "
                     "replica: two holders.")
                : tr("Sentinel: no double grant this time (WAIT %1, lost %2, B %3).")
                      .arg(f->waitAnswer())
                      .arg(f->reportLostA() ? tr("yes") : tr("no"))
                      .arg(f->isAcquiredByB() ? tr("acquired") : tr("refused"));
        const QString redlock =
            quorumRefused
                ? tr("Redlock: master 1 restarted empty, yet B got only %1 of the %2 masters it needed "
                     "and was refused: A still holds a majority, no double grant.")
                      .arg(m_refusedB->succeeded)
                      .arg(m_refusedB->needed)
                : tr("Redlock: B was not refused.");
        return qMakePair(sentinelDoubleGrant && quorumRefused,
                         QString(sentinel + QLatin1Char(' ') + redlock));
    });
}

void DemoScenarioRunner::buildFailoverSentinelPart()
{
    DemoFailover* f = m_sim->failover();
    const QByteArray resource = DemoFailover::resource();
    const auto error = [f] { return f->error(); };
    act([this, f] {
        emit progress(tr("starting a local Sentinel group: 1 primary, 1 replica, 3 sentinels…"));
        f->start();
    });
    when([f] { return f->isReady(); }, error, 60000, tr("the Sentinel group did not come up"));
    say(tr("replication to the replica is cut (the primary gets a password the replica does not know)"));
    act([f] { f->cutReplication(); });
    when([f] { return f->isReplicationCut(); }, error, 10000, tr("replication could not be cut"));
    act([f] { f->acquireA(); });
    when([f] { return f->isAcquiredByA() && f->waitAnswer() >= 0; }, error, 10000,
         tr("A did not get the lock"));
    act([this, f, resource] {
        m_sim->recordOutsideHold(DemoSimulation::clientA, resource, f->tokenA(), DemoFailover::ttlMs);
        emit progress(tr("A holds %1 on the primary; WAIT 1 100 answered %2: no replica has the write")
                          .arg(QString::fromUtf8(resource))
                          .arg(f->waitAnswer()));
    });
    when([f] { return f->viewShows(f->tokenA()); }, error, 15000, tr("the monitor did not see A's lock"));
    after(1500); // long enough to see A's lock in the view before the primary goes
    act([this, f] {
        emit progress(tr("the primary is killed; Sentinel promotes the replica after %1 ms down")
                          .arg(DemoSentinelGroup::downAfterMs));
        f->killPrimary();
    });
    markFault();
    when([f] { return f->report().has_value(); }, error, 90000,
         tr("Sentinel did not promote the replica (no failover report)"));
    act([this, f] {
        emit progress(
            tr("failover %1 → %2: the new primary does not have A's lock; B asks for it there")
                .arg(f->report()->change.oldPrimary.toString(), f->report()->change.newPrimary.toString()));
        f->acquireB();
    });
    when([f] { return f->isAcquiredByB(); }, error, 15000, tr("B did not get the lock"));
    act([this, f, resource] {
        m_sim->recordOutsideHold(DemoSimulation::clientB, resource, f->tokenB(), DemoFailover::ttlMs);
    });
    when([f] { return f->viewShows(f->tokenB()); }, error, 15000, tr("the monitor did not see B's lock"));
    act([this, f] { emit progress(f->holdersText()); });
    watch(4000); // time to read it
}

void DemoScenarioRunner::buildFailoverRedlockPart()
{
    DemoClient* a = m_sim->client(DemoSimulation::clientA);
    DemoClient* b = m_sim->client(DemoSimulation::clientB);
    const QByteArray resource = DemoFailover::resource();
    act([this, resource] {
        m_sim->endOutsideHolds(resource, tr("the Sentinel part ended"));
        m_refusedB.reset();
    });
    heal();
    say(tr("the same on the 5 independent masters: A takes %1 by quorum").arg(QString::fromUtf8(resource)));
    act([a, resource] { a->run(DemoSimulation::taskFor(resource, 30000, 20000)); });
    when([a, resource] { return a->holds(resource); }, 10000, tr("A did not get the lock"));
    after(1500); // long enough for the monitor to see the lock on master 1
    say(tr("master 1, which holds A's write, is killed and restarts empty"));
    act([this] { m_sim->cluster()->restart(0); });
    markFault();
    when([this] { return m_sim->allMastersUp(); }, healTimeoutMs, tr("master 1 did not come back up"));
    act([this, b, resource] {
        emit progress(tr("B asks for %1").arg(QString::fromUtf8(resource)));
        connect(b, &DemoClient::acquireFailed, m_context,
                [this, resource](int, const QByteArray& r, const RedlockOutcome& outcome) {
                    if (r == resource)
                        m_refusedB = std::make_shared<RedlockOutcome>(outcome);
                });
        b->run(DemoSimulation::taskFor(resource, 10000, 1000));
    });
    when([this, b, resource] { return m_refusedB || b->holds(resource); }, 15000,
         tr("B's acquisition did not finish"));
}

} // namespace lockscope
