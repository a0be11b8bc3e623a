// SPDX-License-Identifier: Apache-2.0
#include "metrics/lockactivity.h"

#include "base/monotonicclock.h"
#include "discovery/entryscanner.h"
#include "discovery/keyspaceeventkind.h"
#include "monitor/lockmonitor.h"

namespace lockscope {

namespace {

// A removal this close to the lock's computed expiry is its expiry: the validity is the shortest
// PTTL minus the clock drift allowance, so the keys go a little after it, never much before.
constexpr qint64 expiryMarginMs = 250;

} // namespace

LockActivity::LockActivity(LockMonitor* monitor, QObject* parent) : QObject(parent), m_monitor(monitor)
{
    const int n = monitor->masters()->size();
    m_restarts.fill(0, n);
    m_failovers.fill(0, n);
    m_failoverLost.fill(0, n);
    m_scanSeconds.fill(-1, n);
    m_passStartMs.fill(-1, n);
    connect(monitor, &LockMonitor::locksChanged, this, &LockActivity::onBatch);
    connect(monitor, &LockMonitor::keyspaceEvent, this,
            [this](int, const QByteArray& key, const QByteArray& event) {
                const bool expired = isExpiryEvent(event);
                if (!expired && !isDeleteEvent(event))
                    return;
                // Bounded: keys that never were locks would otherwise pile up.
                if (m_endings.size() > 200000)
                    m_endings.clear();
                m_endings.insert(key, {expired, monotonicMs()});
            });
    connect(monitor, &LockMonitor::initialScanFinished, this, [this] {
        if (!m_ready) {
            m_ready = true;
            emit ready();
        }
    });
    connect(monitor, &LockMonitor::scanProgress, this, [this](int master) {
        if (m_passStartMs.at(master) < 0)
            m_passStartMs[master] = monotonicMs();
    });
    connect(monitor, &LockMonitor::passFinished, this, [this](int master) {
        if (m_passStartMs.at(master) >= 0)
            m_scanSeconds[master] = double(monotonicMs() - m_passStartMs.at(master)) / 1000;
        m_passStartMs[master] = -1;
    });
    connect(monitor, &LockMonitor::failoverDetected, this, [this](int master) { ++m_failovers[master]; });
    connect(monitor, &LockMonitor::failoverReported, this, &LockActivity::onFailover);
    MasterSet* masters = monitor->masters();
    connect(masters, &MasterSet::masterRestarted, this, [this](int master) { ++m_restarts[master]; });
    connect(masters, &MasterSet::clusterPrimaryRestarted, this, [this](int master) { ++m_restarts[master]; });
}

double LockActivity::ageSeconds(const LockView& view, qint64 nowMs) const
{
    const auto it = m_seen.constFind(view.resource);
    return it == m_seen.cend() ? -1.0 : double(qMax<qint64>(0, nowMs - it->sinceMs)) / 1000;
}

MetricsInput LockActivity::input(qint64 nowMs) const
{
    MetricsInput in;
    const MasterSet* masters = m_monitor->masters();
    for (int i = 0; i < masters->size(); ++i) {
        const RedisConnection* c = masters->at(i);
        MasterSample m;
        m.name = c->name();
        m.up = c->isUp();
        m.health = c->health();
        m.mode = m_monitor->scanner(i)->mode();
        m.scanSeconds = scanSeconds(i);
        m.restarts = restarts(i);
        m.failovers = failovers(i);
        m.failoverLostLocks = failoverLostLocks(i);
        in.masters << m;
    }
    in.locks = &m_monitor->locks();
    in.ageSeconds = [this, nowMs](const LockView& v) { return ageSeconds(v, nowMs); };
    in.oldestFirst = [this](const std::function<bool(const QByteArray&)>& visit) { forEachOldest(visit); };
    in.nowMs = nowMs;
    in.acquisitions = m_acquisitions;
    in.expirations = m_expirations;
    in.releases = m_releases;
    in.forceReleases = m_forceReleases;
    in.families = m_families.snapshot();
    return in;
}

void LockActivity::forEachOldest(const std::function<bool(const QByteArray&)>& visit) const
{
    for (const QByteArray& resource : m_oldest)
        if (!resource.isNull() && !visit(resource))
            return;
}

void LockActivity::vacate(quint64 order)
{
    if (order < m_oldestBase || order - m_oldestBase >= m_oldest.size())
        return; // 0: never placed
    m_oldest[order - m_oldestBase] = QByteArray();
    ++m_vacant;
    if (m_vacant < 1024 || 2 * m_vacant < m_oldest.size())
        return;
    // Mostly empty: the live ones move up, in order, and are told their new place.
    std::vector<QByteArray> live;
    live.reserve(m_oldest.size() - m_vacant);
    for (QByteArray& r : m_oldest)
        if (!r.isNull()) {
            m_seen[r].order = m_oldestBase + live.size();
            live.push_back(std::move(r));
        }
    m_oldest = std::move(live);
    m_vacant = 0;
}

void LockActivity::reorder(const QByteArray& resource, Seen& seen)
{
    vacate(seen.order);
    seen.order = m_oldestBase + m_oldest.size();
    m_oldest.push_back(resource);
}

void LockActivity::onBatch(const LockBatch& batch)
{
    const qint64 now = monotonicMs();
    const auto note = [&](const LockView& v) {
        Seen& s = m_seen[v.resource];
        const size_t tokenHash = qHash(v.token, m_seed);
        const bool isNew = s.sinceMs == 0;
        if (isNew)
            s.series = m_families.seriesOf(v.resource);
        if (isNew || s.tokenHash != tokenHash) {
            if (!isNew) {
                // Another token with no removal seen in between: a handover between two reads, told
                // by the server when notifications are on.
                const auto ending = m_endings.constFind(v.resource);
                if (ending == m_endings.cend())
                    m_families.ended(s.series, FamilySeries::Replaced, -1);
                else
                    m_families.ended(s.series,
                                     ending->expired ? FamilySeries::Expired : FamilySeries::Released,
                                     s.beganSeen ? qMax<qint64>(0, ending->atMs - s.sinceMs) : -1);
            }
            m_endings.remove(v.resource);
            // Locks found by the first discovery were taken before we looked: not an acquisition seen.
            if (m_ready) {
                ++m_acquisitions;
                m_families.acquired(s.series, v.validityAt(now));
            }
            s.beganSeen = m_ready;
            s.tokenHash = tokenHash;
            s.sinceMs = now;
            reorder(v.resource, s);
        }
        const qint64 left = v.validityAt(now);
        s.expiresAtMs = left < 0 ? -1 : now + left;
        s.status = v.status;
    };
    for (const LockView& v : batch.added)
        note(v);
    for (const LockView& v : batch.changed)
        note(v);
    for (const QByteArray& r : batch.removed)
        onRemoved(r, now);
}

void LockActivity::onRemoved(const QByteArray& resource, qint64 nowMs)
{
    const auto it = m_seen.constFind(resource);
    if (it == m_seen.cend())
        return;
    const auto ending = m_endings.constFind(resource);
    const bool told = ending != m_endings.cend();
    const qint64 endMs = told ? ending->atMs : nowMs;
    FamilySeries::Ending how = FamilySeries::Released;
    if (it->status == LockStatus::Stuck) {
        ++m_forceReleases;
        how = FamilySeries::ForceReleased;
    } else if (told ? ending->expired : it->expiresAtMs >= 0 && nowMs + expiryMarginMs >= it->expiresAtMs) {
        ++m_expirations;
        how = FamilySeries::Expired;
    } else {
        ++m_releases;
    }
    m_families.ended(it->series, how, it->beganSeen ? qMax<qint64>(0, endMs - it->sinceMs) : -1);
    if (told)
        m_endings.erase(ending);
    const quint64 order = it->order;
    m_seen.erase(it);
    vacate(order);
}

void LockActivity::onFailover(const FailoverReport& report)
{
    if (report.master >= 0 && report.master < m_failoverLost.size())
        m_failoverLost[report.master] += quint64(report.lost.size() + report.changedToken.size());
}

} // namespace lockscope
