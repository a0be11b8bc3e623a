// SPDX-License-Identifier: Apache-2.0
#include "record/livehistory.h"

#include "base/monotonicclock.h"

#include <utility>

namespace lockscope {

namespace {

// A lock that disappears with less validity left than this expired rather than was released: the
// monitor sees expiries up to a poll later than they happen.
constexpr qint64 expiryToleranceMs = 1500;

} // namespace

LiveHistory::LiveHistory(QObject* parent) : QObject(parent)
{
    m_session.startedMs = QDateTime::currentMSecsSinceEpoch();
}

void LiveHistory::markForceReleased(const QByteArray& resource)
{
    if (keeps(resource))
        m_forceReleased.insert(resource); // the recording has its audit record otherwise
}

void LiveHistory::setRecorded(bool recorded)
{
    m_recorded = recorded;
    if (!recorded)
        return;
    // Rebuilt rather than thinned: a table keeps the size of its largest day.
    QHash<QByteArray, Kept> kept;
    if (auto it = m_history.constFind(m_followed); it != m_history.cend())
        kept.insert(it.key(), *it);
    m_history = std::move(kept);
    const bool forced = m_forceReleased.contains(m_followed);
    m_forceReleased = {};
    if (forced)
        m_forceReleased.insert(m_followed);
}

void LiveHistory::follow(const QByteArray& resource)
{
    if (m_recorded && resource != m_followed) {
        m_history.remove(m_followed);
        m_forceReleased.remove(m_followed);
    }
    m_followed = resource;
}

QList<Episode> LiveHistory::episodes(const QByteArray& resource) const
{
    const auto it = m_history.constFind(resource);
    return it == m_history.cend() ? QList<Episode>() : it->episodes.episodes();
}

void LiveHistory::add(Kept& kept, RecordEvent event)
{
    HistoryEvent h;
    h.session = m_session.id;
    h.event = std::move(event);
    kept.episodes.add(h, m_session);
}

void LiveHistory::end(const QByteArray& resource, Kept& kept, bool replaced, qint64 nowMs)
{
    const Episode* open = kept.episodes.open();
    if (!open)
        return;
    RecordEvent e;
    e.timeMs = nowMs;
    e.resource = resource;
    e.token = open->token;
    const bool ranOut = kept.deadlineMs >= 0 && kept.deadlineMs - monotonicMs() <= expiryToleranceMs;
    if (m_forceReleased.contains(resource))
        e.kind = RecordEvent::Kind::ForceReleased;
    else if (kept.atRisk)
        e.kind = RecordEvent::Kind::Lost;
    else if (ranOut)
        e.kind = RecordEvent::Kind::Expired;
    else
        e.kind = replaced ? RecordEvent::Kind::Replaced : RecordEvent::Kind::Released;
    add(kept, std::move(e));
    kept.holders = 0;
}

void LiveHistory::see(const LockView& view, qint64 nowMs)
{
    Kept& kept = m_history[view.resource];
    const Episode* open = kept.episodes.open();
    const quint64 holders = holdersMask(view.holders);
    RecordEvent e;
    e.timeMs = nowMs;
    e.resource = view.resource;
    e.token = view.token;
    e.owner = view.owner;
    e.ttlMs = view.validityMs;
    e.holding = view.holding;
    e.holders = holders;
    if (!open || open->token != view.token) {
        if (open) {
            end(view.resource, kept, true, nowMs);
            m_forceReleased.remove(view.resource);
        }
        // The first holder this history sees may have held it long before.
        e.kind = kept.episodes.isEmpty() ? RecordEvent::Kind::Seen : RecordEvent::Kind::Acquired;
        add(kept, std::move(e));
        kept.episodes.keepLatest(maxEpisodesPerResource);
    } else if ((open->owner.isEmpty() && !view.owner.isEmpty()) || holders != kept.holders) {
        // The same holder: its owner decoded only now, or held on other masters.
        e.kind = RecordEvent::Kind::Holders;
        add(kept, std::move(e));
    }
    kept.holders = holders;
    kept.deadlineMs = view.validityMs < 0 ? -1 : view.computedAtMs + view.validityMs;
    kept.atRisk = view.atRisk;
}

void LiveHistory::observe(const LockBatch& batch, qint64 nowMs)
{
    for (const QByteArray& resource : batch.removed) {
        if (!keeps(resource))
            continue;
        auto it = m_history.find(resource);
        if (it == m_history.end())
            continue;
        end(resource, *it, false, nowMs);
        m_forceReleased.remove(resource);
        emit changed(resource);
    }
    for (const QList<SharedLockView>* list : {&batch.added, &batch.changed}) {
        for (const LockView& v : *list) {
            if (!keeps(v.resource))
                continue;
            see(v, nowMs);
            emit changed(v.resource);
        }
    }
}

} // namespace lockscope
