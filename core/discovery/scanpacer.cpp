// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanpacer.h"

#include <algorithm>
#include <utility>

namespace lockscope {

namespace {

// A PING that comes back within this of the idle latency means a calm server (the rate may climb);
// beyond the busy bound the server, or the machine it runs on, is slowed (the rate is cut). The
// absolute slack keeps loopback's jitter of a few tens of microseconds from reading as load.
constexpr double calmRatio = 1.25;
constexpr qint64 calmSlackUs = 60;
constexpr double busyRatio = 1.6;
constexpr qint64 busySlackUs = 150;
constexpr double climb = 1.06; // per calm page: from the floor to the ceiling in about 20 pages
constexpr double cut = 0.7;    // per busy page
constexpr double smoothing = 0.3;
constexpr double busyPauseShare = 1.0; // of a busy page's own time, paused after it

} // namespace

ScanPacer::ScanPacer(ScanRate rate, int maxCount) : ScanPacer(rate, maxCount, Bounds()) {}

ScanPacer::ScanPacer(ScanRate rate, int maxCount, Bounds bounds)
    : m_setting(rate), m_maxCount(std::max(1, maxCount)), m_bounds(bounds)
{
    m_rate = std::clamp(m_bounds.startKeysPerSecond, floor(), ceiling());
}

qint64 ScanPacer::ceiling() const
{
    return m_setting.mode == ScanRate::Mode::Limit ? std::max<qint64>(1, m_setting.keysPerSecond)
                                                   : m_bounds.ceilingKeysPerSecond;
}

qint64 ScanPacer::floor() const
{
    // A cap the user chose may back off to a quarter of it; auto never below the floor, so that a
    // pass of a large keyspace still ends in bounded time on a busy server.
    return m_setting.mode == ScanRate::Mode::Limit
               ? std::max<qint64>(1, std::min(m_bounds.floorKeysPerSecond, ceiling() / 4))
               : m_bounds.floorKeysPerSecond;
}

void ScanPacer::beginPass(bool first)
{
    m_paced = !(first && m_setting.mode == ScanRate::Mode::Max);
    m_pauseUs = 0;
    // A pass may be another server's (a lister goes from master to master), which may allow INFO:
    // counted afresh. Whether it is shared is known again after two readings; until then it is
    // judged as the last one was.
    m_lastCount = CommandCount();
    m_countSentUs = -1;
    m_firstCountSentUs = -1;
    m_countRefused = false;
    ++m_passSerial;
}

bool ScanPacer::wantsCommandCount(qint64 nowUs) const
{
    const bool young = m_firstCountSentUs < 0 || nowUs - m_firstCountSentUs < m_bounds.commandCountIntervalUs;
    const qint64 interval = young ? m_bounds.youngCountIntervalUs : m_bounds.commandCountIntervalUs;
    return m_paced && !m_countRefused && (m_countSentUs < 0 || nowUs - m_countSentUs >= interval);
}

quint32 ScanPacer::commandCountSent(qint64 nowUs)
{
    if (m_firstCountSentUs < 0)
        m_firstCountSentUs = nowUs;
    m_countSentUs = nowUs;
    return m_passSerial;
}

void ScanPacer::commandsCounted(quint32 pass, qint64 serverTotal, qint64 ourReplies, qint64 nowUs)
{
    if (pass != m_passSerial)
        return;
    const CommandCount last = std::exchange(m_lastCount, CommandCount{serverTotal, ourReplies, nowUs});
    // A first reading, or a server that restarted (its count began again): no rate yet.
    if (last.serverTotal < 0 || serverTotal < last.serverTotal || nowUs <= last.atUs)
        return;
    const qint64 others =
        std::max<qint64>(0, (serverTotal - last.serverTotal) - (ourReplies - last.ourReplies));
    m_shared = others * 1000000 >= m_bounds.sharedCommandsPerSecond * (nowUs - last.atUs);
}

double ScanPacer::latencyRatio() const
{
    return m_idleUs > 0 ? m_recentUs / m_idleUs : 1.0;
}

int ScanPacer::count() const
{
    if (!m_paced)
        return m_maxCount;
    // About one page interval's keys; at a slow rate small enough that the pause stays bounded.
    const qint64 wanted = m_rate * m_bounds.pageIntervalUs / 1000000;
    const qint64 least =
        std::clamp<qint64>(m_rate * m_bounds.maxPauseUs / 1000000, 1, std::max(1, m_bounds.minCount));
    // Shared with others: a page is one short turn of the server, as a read batch is.
    const int most = m_shared ? std::min(m_maxCount, m_bounds.sharedCount) : m_maxCount;
    return int(std::clamp<qint64>(wanted, std::min<qint64>(least, most), most));
}

int ScanPacer::readBatch() const
{
    // Backed off to the floor, reads go in the smallest batches: each is one short turn of the server.
    const qint64 span = std::max<qint64>(1, ceiling() - floor());
    const double level = std::clamp(double(m_rate - floor()) / double(span), 0.0, 1.0);
    const int batch = m_bounds.minReadBatch + int(level * (m_bounds.maxReadBatch - m_bounds.minReadBatch));
    // Shared: the page is as short a turn already, and its keys go in one pipeline (one round trip).
    return m_shared ? m_bounds.sharedCount : batch;
}

void ScanPacer::probed(qint64 rttUs)
{
    const qint64 rtt = std::max<qint64>(1, rttUs);
    m_probes[size_t(m_nextProbe)] = rtt;
    m_nextProbe = (m_nextProbe + 1) % probeWindow;
    m_probesHeld = std::min(m_probesHeld + 1, probeWindow);
    m_recentUs = m_recentUs == 0 ? double(rtt) : m_recentUs + smoothing * (double(rtt) - m_recentUs);
    if (m_probesHeld < probeWindowLow)
        return; // no estimate yet: the rate stays where it started
    // The low reading: the probeWindowLow-th lowest of the probes in the ring. One fast outlier
    // cannot set it; a server that is idle for a quarter of the window can.
    std::array<qint64, probeWindow> sorted = m_probes;
    const auto held = sorted.begin() + m_probesHeld;
    std::nth_element(sorted.begin(), sorted.begin() + (probeWindowLow - 1), held);
    const double low = double(sorted[size_t(probeWindowLow - 1)]);
    // The idle estimate follows a lower reading at once and drifts up slowly (doubles in about 1400
    // probes, longer than a busy spell of other clients lasts) so that a changed network is learnt
    // in the end; it is never above the current low reading.
    m_idleUs = m_idleUs == 0 ? low : std::min(low, m_idleUs * (1.0 + 1.0 / 2048));
}

void ScanPacer::pageDone(int keys, qint64 elapsedUs)
{
    m_pauseUs = 0;
    if (!m_paced)
        return;
    const int asked = count(); // the page's COUNT, before the rate below changes it
    // While shared no PING is sent: the latest round trips are from before, and tell nothing now.
    const bool slowed = !m_shared && m_idleUs > 0 && m_recentUs > m_idleUs * busyRatio + double(busySlackUs);
    const bool busy = slowed || m_shared;
    if (m_idleUs > 0 || m_shared) {
        if (busy)
            m_rate = qint64(double(m_rate) * cut);
        else if (m_recentUs < m_idleUs * calmRatio + double(calmSlackUs))
            m_rate = qint64(double(m_rate) * climb) + 1;
        m_rate = std::clamp(m_rate, floor(), ceiling());
    }
    // The server's work is the keys SCAN visited (COUNT, even when MATCH kept few) and those read.
    const qint64 work = std::max<qint64>(keys, asked);
    const qint64 budgetUs = work * 1000000 / m_rate;
    qint64 pause = budgetUs - std::max<qint64>(0, elapsedUs);
    // Slowed, and the page alone took longer than the rate allows (the server, or this machine's CPU
    // that we share with it, cannot keep up even at the floor): give back as much time as the page
    // took, so that a pass uses at most half of it.
    if (slowed)
        pause = std::max(pause, qint64(double(elapsedUs) * busyPauseShare));
    m_pauseUs = std::clamp<qint64>(pause, 0, m_bounds.maxPauseUs);
}

} // namespace lockscope
