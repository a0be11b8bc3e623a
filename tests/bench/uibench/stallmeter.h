// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <vector>

// Measures how long the GUI event loop goes without running a 1 ms timer: every gap beyond the
// interval is time during which input and painting would have waited. Each gap's CPU time on the GUI
// thread is kept too: a gap the thread spent working is the window's own doing; one it spent
// without the CPU (on two cores shared with five servers and the core's threads) is the machine's.
// Linux's scheduler statistics tell the second kind apart: time runnable but waiting for a core
// (behind another thread), and what is left, time blocked (a lock, a page fault's I/O).
class StallMeter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StallMeter)

public:
    explicit StallMeter(QObject* parent = nullptr);
    ~StallMeter() override;

    void start();
    void stop();
    double maxStallMs() const;
    double percentileStallMs(double p) const;
    // The same of the GUI thread's own CPU time in each gap.
    double maxStallCpuMs() const;
    double percentileStallCpuMs(double p) const;
    // What the longest gap and the gaps at or above the p-th percentile were made of, in ms.
    struct Anatomy
    {
        double stallMs = 0;
        double cpuMs = 0;
        double runQueueMs = 0; // runnable, waiting for a core
        int gaps = 0;
        // The rest of each gap's interval (the gap plus the timer's own 1 ms): blocked or asleep.
        double blockedMs() const { return std::max(0.0, stallMs + gaps - cpuMs - runQueueMs); }
        QJsonObject toJson() const;
    };
    Anatomy longestStall() const;
    Anatomy stallsFromPercentile(double p) const;
    size_t samples() const { return m_stallsUs.size(); }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_lastCpuNs = 0;
    qint64 m_lastRunQueueNs = 0;
    int m_schedstat = -1; // the GUI thread's /proc/thread-self/schedstat, or -1 where there is none
    std::vector<qint64> m_stallsUs;
    std::vector<qint64> m_cpuUs;      // per gap, as m_stallsUs
    std::vector<qint64> m_runQueueUs; // per gap, as m_stallsUs
};
