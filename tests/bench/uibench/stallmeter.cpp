#include "stallmeter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

StallMeter::StallMeter(QObject* parent) : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(1);
    connect(&m_timer, &QTimer::timeout, this, &StallMeter::tick);
}

void StallMeter::start()
{
    m_stallsUs.clear();
    m_clock.start();
    m_lastNs = 0;
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
    return m_stallsUs.empty() ? 0 : double(*std::max_element(m_stallsUs.begin(), m_stallsUs.end())) / 1000.0;
}

double StallMeter::percentileStallMs(double p) const
{
    if (m_stallsUs.empty())
        return 0;
    std::vector<qint64> sorted = m_stallsUs;
    std::sort(sorted.begin(), sorted.end());
    const size_t at = std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size())));
    return double(sorted[at]) / 1000.0;
}
