// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <vector>

namespace lockscope {
class LockFilterBar;
class LockFilterProxy;
} // namespace lockscope

// Filters the way a person does at the filter bar, one step after the other: types a text a
// character at a time (each keystroke a new filter, the next one arriving before the previous
// result may be in), clears it, then switches a quick filter on and off. Each step waits until the
// table shows what the filter asks for (the row count it is told to expect) and records how long
// that took, then pauses before the next step so the filtered view is scrolled too.
class FilterProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilterProbe)

public:
    FilterProbe(lockscope::LockFilterBar* bar, lockscope::LockFilterProxy* proxy, QObject* parent = nullptr);

    // `rows`: how many rows the table shows once the step's filter is applied.
    void typeText(const QString& text, int rows);
    void clearText(int rows);
    void toggleQuickFilter(int flag, int rows);

    void start(int pauseMs, int keystrokeMs, int timeoutMs);
    bool timedOut() const { return m_timedOut; }
    // Longest time from a step's last action to its result on screen.
    qint64 maxApplyMs() const { return m_maxApplyMs; }
    size_t stepsDone() const { return m_done; }

signals:
    void finished();

private:
    struct Step
    {
        std::vector<std::function<void()>> actions; // one per keystroke or click
        int rows = 0;
    };
    void next();
    void poll();

    lockscope::LockFilterBar* m_bar;
    lockscope::LockFilterProxy* m_proxy;
    std::vector<Step> m_steps;
    size_t m_done = 0;
    size_t m_action = 0;
    int m_pauseMs = 1000;
    int m_keystrokeMs = 150;
    int m_timeoutMs = 60000;
    bool m_timedOut = false;
    qint64 m_maxApplyMs = 0;
    QElapsedTimer m_clock;
    QTimer m_poll;
};
