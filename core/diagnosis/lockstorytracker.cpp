// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/lockstorytracker.h"

#include "base/bytesdisplay.h"

namespace lockscope {

qint64 LockStoryTracker::ttlOf(const LockView& view)
{
    qint64 ttl = -1;
    for (int i : view.holders) {
        // By reference: a copy (QList::value) takes and drops a reference on the reading's content,
        // which the core thread's copy of the view shares: two atomic writes to a line the other
        // core holds, for every master of every view the window is told of.
        if (i < 0 || i >= view.observations.size())
            continue;
        const MasterObservation& m = view.observations.at(i);
        if (m.present() && !m.error().isError() && m.hasExpiry())
            ttl = qMax(ttl, m.pttlAt(view.computedAtMs));
    }
    return ttl;
}

void LockStoryTracker::observe(const LockBatch& batch, qint64 wallNowMs, qint64 monotonicNowMs)
{
    for (const LockView& v : batch.added)
        observe(v, wallNowMs, monotonicNowMs);
    for (const LockView& v : batch.changed)
        observe(v, wallNowMs, monotonicNowMs);
    for (const QByteArray& r : batch.removed)
        forget(r);
}

void LockStoryTracker::forget(const QByteArray& resource)
{
    const auto it = m_stories.constFind(resource);
    if (it == m_stories.cend())
        return;
    if (it->ownerNoted)
        m_owners.remove(resource);
    m_stories.erase(it);
}

void LockStoryTracker::restart(const QByteArray& resource, Kept& kept)
{
    if (kept.ownerNoted)
        m_owners.remove(resource);
    kept = Kept();
}

void LockStoryTracker::observe(const LockView& view, qint64 wallNowMs, qint64 monotonicNowMs)
{
    Kept& story = m_stories[view.key()];
    const qint64 at = wallNowMs - qMax<qint64>(0, monotonicNowMs - view.computedAtMs);
    if (view.token.isEmpty()) {
        restart(view.resource, story);
        return;
    }
    if (const quint32 hash = HashedKey::hashOf(view.token); !story.holds(hash)) {
        restart(view.resource, story);
        story.tokenHash = hash;
        story.firstSeenMs = at;
    }
    const qint64 ttl = ttlOf(view);
    if (ttl < 0)
        return;
    if (story.hasReading) {
        const TtlReading& last = story.lastReading;
        if (at < last.atMs)
            return; // an older computation than one already counted
        const qint64 expected = last.ttlMs - (at - last.atMs);
        if (ttl > expected + extensionToleranceMs) {
            ++story.extensions;
            if (story.firstExtensionMs < 0)
                story.firstExtensionMs = at;
            story.lastExtensionMs = at;
            story.lastExtensionTtlMs = ttl;
        }
    }
    story.leaseMs = qMax(story.leaseMs, ttl);
    story.lastReading = TtlReading{at, ttl};
    story.hasReading = true;
}

LockStory LockStoryTracker::story(const HashedKey& resource, const QByteArray& token) const
{
    const auto it = m_stories.constFind(resource);
    if (it == m_stories.cend() || token.isEmpty() || !it->holds(HashedKey::hashOf(token)))
        return LockStory();
    LockStory story;
    story.token = token;
    story.firstSeenMs = it->firstSeenMs;
    story.extensions = it->extensions;
    story.firstExtensionMs = it->firstExtensionMs;
    story.lastExtensionMs = it->lastExtensionMs;
    story.lastExtensionTtlMs = it->lastExtensionTtlMs;
    story.leaseMs = it->leaseMs;
    if (it->hasReading)
        story.lastReading = it->lastReading;
    if (it->ownerNoted) {
        const OwnerSeen owner = m_owners.value(resource);
        story.ownerClient = owner.client;
        story.ownerClientSeenMs = owner.seenMs;
    }
    return story;
}

void LockStoryTracker::noteOwners(const QByteArray& resource, const DiagnosisFacts& facts, qint64 wallNowMs)
{
    auto it = m_stories.find(resource);
    if (it == m_stories.end() || facts.owners.isEmpty())
        return;
    const OwnerClient& o = facts.owners.constFirst();
    it->ownerNoted = true;
    m_owners.insert(
        resource,
        OwnerSeen{o.name.isEmpty()
                      ? QStringLiteral("client %1 (id %2)").arg(escapeBytes(o.address)).arg(o.clientId)
                      : QStringLiteral("client '%1' %2 (id %3)")
                            .arg(escapeBytes(o.name), escapeBytes(o.address))
                            .arg(o.clientId),
                  wallNowMs});
}

} // namespace lockscope
