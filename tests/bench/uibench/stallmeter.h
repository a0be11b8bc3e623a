// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

// Measures how long the GUI event loop goes without running a 1 ms timer: every gap beyond the
// interval is time during which input and painting would have waited. Each gap's CPU time on the GUI
// thread is kept too: a gap the thread spent working is the window's own doing; one it spent
// without the CPU (on two cores shared with five servers and the core's threads) is the machine's.
class StallMeter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StallMeter)

public:
    explicit StallMeter(QObject* parent = nullptr);

    void start();
    void stop();
    double maxStallMs() const;
    double percentileStallMs(double p) const;
    // The same of the GUI thread's own CPU time in each gap.
    double maxStallCpuMs() const;
    double percentileStallCpuMs(double p) const;
    size_t samples() const { return m_stallsUs.size(); }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_lastCpuNs = 0;
    std::vector<qint64> m_stallsUs;
    std::vector<qint64> m_cpuUs; // per gap, as m_stallsUs
};
