// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "demo/democounters.h"
#include "demo/demoscenario.h"
#include "locking/redlockoutcome.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace lockscope {

class DemoSimulation;

// Plays one guided scenario on the simulation as a sequence of steps: act on the cluster or a client,
// wait for a condition (never a blind sleep where a condition exists), or let time pass so there is
// something to watch. The outcome is reported from what the core saw (counters, holds, writes).
class DemoScenarioRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoScenarioRunner)

public:
    // `simulation` must outlive this object; its stop() cancels the scenario.
    explicit DemoScenarioRunner(DemoSimulation* simulation, QObject* parent = nullptr);

    void run(DemoScenario scenario);
    // Stops the scenario where it is; the failover scenario's Sentinel group stops with it.
    void cancel();
    bool isRunning() const { return m_running; }
    DemoScenario current() const { return m_scenario; }
    // Counters when the scenario's fault was injected: what the outcome is measured against.
    const DemoCounters& baseline() const { return m_baseline; }
    // What the clients did from the fault to the result (to now while the scenario runs): the
    // result line's numbers and the panel's scenario counters are both this.
    DemoCounters measured() const;
    // A scenario has injected its fault since the simulation started (measured() means something).
    bool hasMeasured() const { return m_measuring || m_measuredEnd.has_value(); }
    qint64 faultAtMs() const { return m_faultAtMs; }
    // Multiplies the pauses that are there only for a person to watch (the time the result counts
    // over, time to read a line); the waits a scenario's outcome depends on keep their length. 1 in
    // the window; the tests shorten them. Takes effect from the next run().
    void setWatchTimeScale(double scale) { m_watchScale = scale; }

signals:
    void started(lockscope::DemoScenario scenario, const QString& caption);
    void progress(const QString& text);
    void finished(lockscope::DemoScenario scenario, bool asExpected, const QString& summary);

private:
    using Next = std::function<void()>;
    using Step = std::function<void(const Next& next)>;

    void add(Step step) { m_steps << std::move(step); }
    void act(std::function<void()> action);
    void after(int ms);
    void watch(int ms); // after(), scaled by setWatchTimeScale()
    void when(std::function<bool()> condition, int timeoutMs, QString failure);
    // As when(), but gives up at once with the text `error` returns once that is not empty.
    void when(std::function<bool()> condition, std::function<QString()> error, int timeoutMs,
              QString failure);
    void say(QString text);
    void markFault();
    // Waits (30 s at most) until the count since the fault holds at least one finished attempt.
    void waitForARound();
    void heal();
    void finishWith(std::function<QPair<bool, QString>()> verdict);
    void advance();
    void fail(const QString& why);
    // Forgets the steps; what the scenario set up stays for the window to show.
    void reset();

    void buildMinority();
    void buildMajority();
    void buildRestart();
    void buildPause();
    void buildDrift();
    void buildFailover();
    void buildFailoverSentinelPart();
    void buildFailoverRedlockPart();

    DemoSimulation* m_sim;
    QList<Step> m_steps;
    int m_at = 0;
    quint64 m_generation = 0;
    bool m_running = false;
    DemoScenario m_scenario = DemoScenario::MinorityFailure;
    DemoCounters m_baseline;
    bool m_measuring = false;
    std::optional<DemoCounters> m_measuredEnd; // frozen when the result is given
    qint64 m_faultAtMs = 0;
    double m_watchScale = 1.0;
    QTimer m_poll;
    std::function<bool()> m_condition;
    std::function<QString()> m_error;
    qint64 m_deadlineMs = 0;
    QString m_failure;
    QObject* m_context = nullptr; // connections that last one run
    // The failover scenario's comparison: B's Redlock attempt while A holds the quorum.
    std::shared_ptr<RedlockOutcome> m_refusedB;
};

} // namespace lockscope
