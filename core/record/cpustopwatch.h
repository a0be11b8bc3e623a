#pragma once

#include <QtGlobal>

#include <atomic>
#include <ctime>

namespace lockscope {

// Adds the CPU time this thread spends in a scope to a counter: what the flight recorder itself
// costs, measured where it runs (the monitor's thread and the writer's), not guessed from the
// difference of two noisy runs.
class CpuStopwatch
{
    Q_DISABLE_COPY_MOVE(CpuStopwatch)

public:
    explicit CpuStopwatch(std::atomic<qint64>& sink) : m_sink(sink), m_start(now()) {}
    ~CpuStopwatch() { m_sink += now() - m_start; }

private:
    static qint64 now()
    {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return qint64(t.tv_sec) * 1000000000LL + t.tv_nsec;
    }

    std::atomic<qint64>& m_sink;
    qint64 m_start;
};

} // namespace lockscope
