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
    QHash<HashedKey, Kept> kept;
    if (auto it = m_history.constFind(m_followed); it != m_history.cend()) {
        kept.insert(it.key(), *it);
        kept.begin()->goneAt = 0; // kept while followed, gone or not
    }
    m_history = std::move(kept);
    m_gone = {};
    m_goneCount = 0;
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
    if (it == m_history.cend())
        return {};
    if (it->built)
        return it->built->episodes();
    if (it->single.isSet())
        return {it->single.episode(m_session.masters)};
    return {};
}

const QByteArray* LiveHistory::openToken(const Kept& kept)
{
    if (kept.built)
        return kept.built->open() ? &kept.built->open()->token : nullptr;
    return kept.single.isSet() ? &kept.single.token() : nullptr;
}

const QString& LiveHistory::openOwner(const Kept& kept)
{
    static const QString none;
    if (kept.built)
        return kept.built->open() ? kept.built->open()->owner : none;
    return kept.single.owner();
}

void LiveHistory::add(Kept& kept, RecordEvent event)
{
    if (!kept.built && kept.single.takes(event)) {
        kept.single.add(event);
        return;
    }
    if (!kept.built) {
        kept.built = std::make_shared<EpisodeBuilder>();
        kept.single.moveInto(*kept.built, event.resource, m_session);
    }
    HistoryEvent h;
    h.session = m_session.id;
    h.event = std::move(event);
    kept.built->add(h, m_session);
}

void LiveHistory::end(const QByteArray& resource, Kept& kept, bool replaced, qint64 nowMs)
{
    const QByteArray* token = openToken(kept);
    if (!token)
        return;
    RecordEvent e;
    e.timeMs = nowMs;
    e.resource = resource;
    e.token = *token;
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
    Kept& kept = m_history[view.key()];
    if (kept.goneAt != 0) { // back: its place among the gone is passed over
        kept.goneAt = 0;
        --m_goneCount;
    }
    const QByteArray* openedBy = openToken(kept);
    const quint64 holders = holdersMask(view.holders);
    RecordEvent e;
    e.timeMs = nowMs;
    e.resource = view.resource;
    e.token = view.token;
    e.owner = view.owner;
    e.ttlMs = view.validityMs;
    e.holding = view.holding;
    e.holders = holders;
    if (!openedBy || *openedBy != view.token) {
        if (openedBy) {
            end(view.resource, kept, true, nowMs);
            m_forceReleased.remove(view.resource);
        }
        // The first holder this history sees may have held it long before.
        e.kind = isEmpty(kept) ? RecordEvent::Kind::Seen : RecordEvent::Kind::Acquired;
        add(kept, std::move(e));
        if (kept.built)
            kept.built->keepLatest(maxEpisodesPerResource);
    } else if ((openOwner(kept).isEmpty() && !view.owner.isEmpty()) || holders != kept.holders) {
        // The same holder: its owner decoded only now, or held on other masters.
        e.kind = RecordEvent::Kind::Holders;
        add(kept, std::move(e));
    }
    kept.holders = holders;
    kept.deadlineMs = view.validityMs < 0 ? -1 : view.computedAtMs + view.validityMs;
    kept.atRisk = view.atRisk;
}

void LiveHistory::noteGone(const HashedKey& key, Kept& kept)
{
    if (kept.goneAt != 0 || openToken(kept))
        return;
    if (++m_lastGoneAt == 0) // after four billion: 0 says held
        ++m_lastGoneAt;
    kept.goneAt = m_lastGoneAt;
    m_gone.emplace_back(key, m_lastGoneAt);
    ++m_goneCount;
}

void LiveHistory::forgetGone()
{
    while (m_goneCount > maxGoneResources) {
        const auto [key, goneAt] = m_gone.front();
        m_gone.pop_front();
        if (const auto it = m_history.find(key); it != m_history.end() && it->goneAt == goneAt) {
            m_history.erase(it);
            m_forceReleased.remove(key.bytes());
            --m_goneCount;
        }
    }
    // A lock that comes and goes leaves a place behind each time: dropped once they outnumber
    // the current ones, so that the queue stays within twice the gone locks.
    if (qsizetype(m_gone.size()) > 2 * m_goneCount + 1024)
        std::erase_if(m_gone, [this](const std::pair<HashedKey, quint32>& gone) {
            const auto it = m_history.constFind(gone.first);
            return it == m_history.cend() || it->goneAt != gone.second;
        });
}

void LiveHistory::observe(const LockBatch& batch, qint64 nowMs)
{
    for (const QByteArray& resource : batch.removed) {
        if (!keeps(resource))
            continue;
        const HashedKey key(resource);
        auto it = m_history.find(key);
        if (it == m_history.end())
            continue;
        end(resource, *it, false, nowMs);
        m_forceReleased.remove(resource);
        if (!m_recorded)
            noteGone(key, *it);
        emit changed(resource);
    }
    forgetGone();
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
