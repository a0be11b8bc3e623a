// SPDX-License-Identifier: Apache-2.0
#include "bench/uibench/stallmeter.h"

#include "base/monotonicclock.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fcntl.h>
#include <unistd.h>

namespace {

using lockscope::threadCpuNs;

double maxOf(const std::vector<qint64>& us)
{
    return us.empty() ? 0 : double(*std::max_element(us.begin(), us.end())) / 1000.0;
}

double percentileOf(std::vector<qint64> us, double p)
{
    if (us.empty())
        return 0;
    std::sort(us.begin(), us.end());
    const size_t at = std::min(us.size() - 1, size_t(p / 100.0 * double(us.size())));
    return double(us[at]) / 1000.0;
}

// The second field of schedstat: ns this thread has spent runnable on a run queue, not running.
qint64 runQueueNs(int fd)
{
    char text[96];
    const ssize_t n = fd < 0 ? -1 : ::pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    unsigned long long running = 0, waiting = 0;
    return std::sscanf(text, "%llu %llu", &running, &waiting) == 2 ? qint64(waiting) : 0;
}

} // namespace

StallMeter::StallMeter(QObject* parent) : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(1);
    connect(&m_timer, &QTimer::timeout, this, &StallMeter::tick);
}

StallMeter::~StallMeter()
{
    if (m_schedstat >= 0)
        ::close(m_schedstat);
}

void StallMeter::start()
{
    m_stallsUs.clear();
    m_cpuUs.clear();
    m_runQueueUs.clear();
    if (m_schedstat < 0) // the thread that runs the meter's timer is the one measured
        m_schedstat = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    m_clock.start();
    m_lastNs = 0;
    m_lastCpuNs = threadCpuNs();
    m_lastRunQueueNs = runQueueNs(m_schedstat);
    m_timer.start();
}

void StallMeter::stop()
{
    m_timer.stop();
    tick(); // a stall still under way counts too
}

void StallMeter::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 stallUs = std::max<qint64>(0, (now - m_lastNs) / 1000 - 1000);
    m_stallsUs.push_back(stallUs);
    m_lastNs = now;
    const qint64 cpuNs = threadCpuNs();
    m_cpuUs.push_back((cpuNs - m_lastCpuNs) / 1000);
    m_lastCpuNs = cpuNs;
    const qint64 queuedNs = runQueueNs(m_schedstat);
    m_runQueueUs.push_back((queuedNs - m_lastRunQueueNs) / 1000);
    m_lastRunQueueNs = queuedNs;
    // UIBENCH_TRACE_MS=N lists every stall above N ms with its end on CLOCK_MONOTONIC, to line up
    // with `perf record -k CLOCK_MONOTONIC` samples of the GUI thread.
    static const int traceMs =
        std::getenv("UIBENCH_TRACE_MS") ? std::atoi(std::getenv("UIBENCH_TRACE_MS")) : -1;
    if (traceMs >= 0 && stallUs > traceMs * 1000) {
        timespec ts{};
        clock_gettime(CLOCK_MONOTONIC, &ts);
        std::fprintf(stderr, "stall %.1f ms ending at %ld.%06ld\n", double(stallUs) / 1000.0, long(ts.tv_sec),
                     long(ts.tv_nsec / 1000));
    }
}

double StallMeter::maxStallMs() const
{
    return maxOf(m_stallsUs);
}

double StallMeter::percentileStallMs(double p) const
{
    return percentileOf(m_stallsUs, p);
}

double StallMeter::maxStallCpuMs() const
{
    return maxOf(m_cpuUs);
}

double StallMeter::percentileStallCpuMs(double p) const
{
    return percentileOf(m_cpuUs, p);
}

QJsonObject StallMeter::Anatomy::toJson() const
{
    const auto tenths = [](double ms) { return qRound(ms * 10) / 10.0; };
    return {{QStringLiteral("gaps"), gaps},
            {QStringLiteral("stallMs"), tenths(stallMs)},
            {QStringLiteral("cpuMs"), tenths(cpuMs)},
            {QStringLiteral("runQueueMs"), tenths(runQueueMs)},
            {QStringLiteral("blockedMs"), tenths(blockedMs())}};
}

StallMeter::Anatomy StallMeter::longestStall() const
{
    if (m_stallsUs.empty())
        return {};
    const size_t i = size_t(std::max_element(m_stallsUs.begin(), m_stallsUs.end()) - m_stallsUs.begin());
    return {double(m_stallsUs[i]) / 1000.0, double(m_cpuUs[i]) / 1000.0, double(m_runQueueUs[i]) / 1000.0, 1};
}

StallMeter::Anatomy StallMeter::stallsFromPercentile(double p) const
{
    const auto from = qint64(percentileStallMs(p) * 1000.0);
    Anatomy sum;
    for (size_t i = 0; i < m_stallsUs.size(); ++i) {
        if (m_stallsUs[i] > 0 && m_stallsUs[i] >= from) {
            sum.stallMs += double(m_stallsUs[i]) / 1000.0;
            sum.cpuMs += double(m_cpuUs[i]) / 1000.0;
            sum.runQueueMs += double(m_runQueueUs[i]) / 1000.0;
            ++sum.gaps;
        }
    }
    return sum;
}
