// SPDX-License-Identifier: Apache-2.0
#include "insights/lockstatsbuilder.h"

#include "insights/familypictures.h"
#include "record/recordingreader.h"
#include "record/resourcefamily.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace lockscope {

namespace {

using Kind = RecordEvent::Kind;

} // namespace

// One lock (a resource in one recording session) while the pass may still learn about it.
struct LockStatsBuilder::Lock
{
    int family = -1;
    qint64 session = 0;
    qint64 lastEventMs = 0;
    EpisodeBuilder episodes;
    // The holder seen being taken, for its renewals: its token, its lease, its latest renewal.
    QByteArray renewing;
    qint64 leaseMs = -1;
    qint64 renewedAtMs = -1;
    // When the lock was last let go (released or expired) with no holder left; -1: not free.
    qint64 freedAtMs = -1;
    qint64 waiters = 0; // clients waiting for it, as last read
    // In m_ending: let go (compactIfIdle) once its last tenure has settled; never evicted before.
    bool queued = false;
};

LockStatsBuilder::LockStatsBuilder(const QList<RecordingSession>& sessions, qint64 sinceMs, Detail detail)
    : m_sinceMs(sinceMs), m_detail(detail)
{
    for (const RecordingSession& s : sessions) {
        m_sessions.insert(s.id, s);
        m_lastSession = qMax(m_lastSession, s.id);
    }
}

LockStatsBuilder::~LockStatsBuilder() = default;

LockStatsBuilder::Lock& LockStatsBuilder::lockOf(const HistoryEvent& h)
{
    std::unique_ptr<Lock>& lock = m_locks[LockKey{h.session, h.resourceId}];
    if (!lock) {
        lock = std::make_unique<Lock>();
        lock->session = h.session;
        const QByteArray family = ResourceFamily::of(h.event.resource);
        auto it = m_familyIndex.constFind(family);
        if (it == m_familyIndex.cend()) {
            it = m_familyIndex.insert(family, int(m_families.size()));
            m_families.emplace_back();
            m_families.back().family = family;
        }
        lock->family = it.value();
        if (firstSight(h.resourceId))
            ++m_families[size_t(lock->family)].resources;
    }
    return *lock;
}

void LockStatsBuilder::add(const HistoryEvent& h)
{
    const RecordEvent& e = h.event;
    const bool contention = e.kind == Kind::Waiters || isTracedKind(e.kind);
    if (e.isMasterEvent() || (isEvidenceOnly(e.kind) && !contention))
        return;
    if (m_firstMs < 0)
        m_firstMs = e.timeMs;
    m_lastMs = qMax(m_lastMs, e.timeMs);
    Lock& lock = lockOf(h);
    if (contention)
        return observeContention(lock, e);
    lock.lastEventMs = e.timeMs;
    lock.episodes.add(h, sessionOf(h.session));
    track(lock, e);
    settle(lock, e.timeMs);
    if (!lock.queued && m_locks.size() >= compactFrom && lock.episodes.hasEnded() &&
        !lock.episodes.hasOpen()) {
        lock.queued = true;
        m_ending.push_back({e.timeMs, &lock});
    }
    compactEnded(e.timeMs);
    // Each look visits every lock: at most once per as many events as there are locks.
    if (++m_sinceEviction >= qMax<qint64>(100000, qint64(m_locks.size()))) {
        m_sinceEviction = 0;
        evict(e.timeMs);
    }
}

void LockStatsBuilder::track(Lock& lock, const RecordEvent& e)
{
    FamilySamples& family = m_families[size_t(lock.family)];
    const bool inWindow = isInWindow(e.timeMs);
    switch (e.kind) {
    case Kind::Acquired:
        if (lock.freedAtMs >= 0 && e.timeMs - lock.freedAtMs <= handoverWithinMs && inWindow) {
            family.handoverGapMs.push_back(Spread::sample(e.timeMs - lock.freedAtMs));
            if (lock.waiters > 0)
                family.longestFreeWhileWaitingMs =
                    qMax(family.longestFreeWhileWaitingMs, e.timeMs - lock.freedAtMs);
        }
        lock.freedAtMs = -1;
        lock.renewing = e.token;
        lock.leaseMs = e.ttlMs > 0 ? e.ttlMs : -1;
        lock.renewedAtMs = e.timeMs;
        if (inWindow) {
            ++family.acquisitions;
            if (m_detail == Detail::Pictures)
                family.acquiredAt.push_back(tenthsSinceFirst(e.timeMs));
            if (lock.leaseMs > 0)
                family.leaseMs.push_back(Spread::sample(lock.leaseMs));
        }
        break;
    case Kind::Extended:
        if (e.token != lock.renewing || lock.leaseMs <= 0 || lock.renewedAtMs < 0)
            break;
        if (const qint64 gap = e.timeMs - lock.renewedAtMs; gap > lock.leaseMs / 20) {
            if (inWindow) {
                family.renewalGapMs.push_back(Spread::sample(gap));
                if (gap > lock.leaseMs - lock.leaseMs / 5)
                    ++family.lateRenewals;
            }
            lock.renewedAtMs = e.timeMs;
        }
        break;
    case Kind::Released:
    case Kind::Expired:
        // Free only once no holder is left (a second token held beside it keeps it taken).
        lock.freedAtMs = lock.episodes.hasOpen() ? -1 : e.timeMs;
        break;
    case Kind::Replaced:
    case Kind::Lost:
    case Kind::ForceReleased:
        lock.freedAtMs = -1; // no handover a client made: not measured
        break;
    default:
        break;
    }
}

void LockStatsBuilder::observeContention(Lock& lock, const RecordEvent& e)
{
    FamilySamples& family = m_families[size_t(lock.family)];
    const bool inWindow = isInWindow(e.timeMs);
    if (e.kind == Kind::Waiters) {
        lock.waiters = qMax<qint64>(0, waitersOf(e));
        if (inWindow)
            family.peakWaiters = qMax(family.peakWaiters, lock.waiters);
        return;
    }
    // Any traced event says the tracer watched the family: no refusal then is a count of 0.
    if (!inWindow || e.master < 0 || e.master >= maxTracedMasters)
        return;
    if (family.refusedOnMaster.size() <= size_t(e.master))
        family.refusedOnMaster.resize(size_t(e.master) + 1);
    if (e.kind == Kind::TracedRefused)
        ++family.refusedOnMaster[size_t(e.master)];
}

void LockStatsBuilder::fold(FamilySamples& family, const Episode& episode)
{
    if (episode.ended == Episode::End::Open) {
        ++family.open;
        return;
    }
    if (!isInWindow(episode.endMs))
        return;
    ++family.endings[size_t(episode.ended)];
    if (m_detail == Detail::Pictures)
        family.endedAt[size_t(episode.ended)].push_back(tenthsSinceFirst(episode.endMs));
    if (episode.ended == Episode::End::Released && episode.startSeen && isInWindow(episode.startMs))
        family.holdMs.push_back(Spread::sample(episode.endMs - episode.startMs));
}

const RecordingSession& LockStatsBuilder::sessionOf(qint64 id) const
{
    // By reference: a copy per event (its list of masters counted up and down) was a twentieth of
    // the pass.
    static const RecordingSession unknown;
    const auto it = m_sessions.constFind(id);
    return it == m_sessions.cend() ? unknown : *it;
}

qint32 LockStatsBuilder::tenthsSinceFirst(qint64 ms) const
{
    return qint32(std::clamp<qint64>((ms - m_firstMs) / 100, std::numeric_limits<qint32>::min(),
                                     std::numeric_limits<qint32>::max()));
}

void LockStatsBuilder::settle(Lock& lock, qint64 nowMs)
{
    if (!lock.episodes.hasEnded())
        return;
    FamilySamples& family = m_families[size_t(lock.family)];
    for (const Episode& episode : lock.episodes.takeSettled(nowMs))
        fold(family, episode);
}

bool LockStatsBuilder::compactIfIdle(Lock& lock) const
{
    if (m_locks.size() < compactFrom || lock.episodes.hasOpen() || lock.episodes.hasEnded())
        return false;
    lock.episodes = EpisodeBuilder();
    lock.renewing = QByteArray();
    return true;
}

void LockStatsBuilder::compactEnded(qint64 nowMs)
{
    // Each lock let go once its last tenure can no longer be relabelled by a force-release: a busy
    // set keeps only the last seconds' tenures in full, not everything since the last eviction.
    while (!m_ending.empty() && m_ending.front().first < nowMs - EpisodeBuilder::forceReleaseWindowMs) {
        Lock& lock = *m_ending.front().second;
        m_ending.pop_front();
        lock.queued = false;
        settle(lock, nowMs);
        compactIfIdle(lock);
    }
}

void LockStatsBuilder::evict(qint64 nowMs)
{
    std::erase_if(m_locks, [&](auto& entry) {
        Lock& lock = *entry.second;
        settle(lock, nowMs);
        if (lock.queued || lock.episodes.hasOpen() || lock.episodes.hasEnded())
            return false; // m_ending points at a queued one
        // Nothing held, nothing left to settle, and idle past any handover it could still measure.
        if (nowMs - lock.lastEventMs > handoverWithinMs)
            return true;
        compactIfIdle(lock);
        return false;
    });
}

bool LockStatsBuilder::firstSight(qint64 resourceId)
{
    // The file numbers its resources from 1 up: a bit each, a set for any number past that.
    if (resourceId >= 0 && resourceId < maxDenseResourceId) {
        if (size_t(resourceId) >= m_seen.size())
            m_seen.resize(size_t(resourceId) + 1 + m_seen.size() / 2);
        if (m_seen[size_t(resourceId)])
            return false;
        m_seen[size_t(resourceId)] = true;
        return true;
    }
    return !std::exchange(m_seenElsewhere[resourceId], true);
}

QList<FamilyFigures> LockStatsBuilder::finish()
{
    for (auto& [key, lock] : m_locks) {
        FamilySamples& family = m_families[size_t(lock->family)];
        // A tenure still open in an earlier session ended, unseen, when that session stopped.
        for (const Episode& episode : lock->episodes.finish(m_lastSession))
            fold(family, episode);
    }
    m_ending.clear();
    m_locks.clear();
    const qint64 from = m_sinceMs >= 0 && m_sinceMs > m_firstMs ? m_sinceMs : m_firstMs;
    const qint64 spanMs = m_firstMs < 0 ? 0 : m_lastMs - from;
    QList<FamilyFigures> out;
    out.reserve(qsizetype(m_families.size()));
    for (FamilySamples& samples : m_families) {
        if (samples.acquisitions == 0 && samples.open == 0 &&
            std::none_of(samples.endings.cbegin(), samples.endings.cend(), [](qint64 n) { return n > 0; }))
            continue;
        out << FamilyFigures::of(samples, spanMs);
        if (m_detail == Detail::Pictures)
            out.back().pictures = std::make_shared<const FamilyPictures>(
                FamilyPictures::of(samples, out.back(), m_firstMs, from, m_lastMs));
    }
    m_families.clear();
    m_familyIndex.clear();
    FamilyFigures::sortByRisk(out);
    return out;
}

Result<QList<FamilyFigures>> LockStatsBuilder::ofRecording(RecordingReader& reader, qint64 sinceMs,
                                                           Detail detail,
                                                           const std::function<bool()>& keepGoing)
{
    const Result<QList<RecordingSession>> sessions = reader.sessions();
    if (!sessions)
        return sessions.error();
    LockStatsBuilder builder(*sessions, sinceMs, detail);
    qint64 events = 0;
    bool stopped = false;
    if (const RedisError error = reader.forEachEvent([&](const HistoryEvent& h) {
            builder.add(h);
            stopped = keepGoing && ++events % 4096 == 0 && !keepGoing();
            return !stopped;
        }))
        return error;
    if (stopped)
        return RedisError(ErrorKind::Cancelled, QString(),
                          QStringLiteral("the pass over the recording was stopped"));
    return builder.finish();
}

} // namespace lockscope
