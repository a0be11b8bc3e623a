#include "diagnosis/lockstorytracker.h"

#include "base/bytesdisplay.h"

#include <algorithm>

namespace lockscope {

qint64 LockStoryTracker::ttlOf(const LockView& view)
{
    qint64 ttl = -1;
    for (int i : view.holders) {
        const MasterObservation& m = view.observations.value(i);
        if (m.present() && !m.error().isError() && m.hasExpiry())
            ttl = qMax(ttl, qMax<qint64>(0, m.pttlMs() - (view.computedAtMs - m.readAtMs())));
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

void LockStoryTracker::observe(const LockView& view, qint64 wallNowMs, qint64 monotonicNowMs)
{
    LockStory& story = m_stories[view.resource];
    const qint64 at = wallNowMs - qMax<qint64>(0, monotonicNowMs - view.computedAtMs);
    if (view.token.isEmpty()) {
        story = LockStory();
        return;
    }
    if (story.token != view.token) {
        story = LockStory();
        story.token = view.token;
        story.firstSeenMs = at;
    }
    const qint64 ttl = ttlOf(view);
    if (ttl < 0)
        return;
    if (!story.readings.isEmpty()) {
        const TtlReading& last = story.readings.constLast();
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
    // Kept at exactly maxReadings in one allocation of that size: appending a fifth and dropping
    // the first grew the list to twice that, once per lock the window shows.
    if (story.readings.size() >= LockStory::maxReadings) {
        std::move(story.readings.begin() + 1, story.readings.end(), story.readings.begin());
        story.readings.last() = TtlReading{at, ttl};
        return;
    }
    if (story.readings.isEmpty())
        story.readings.reserve(LockStory::maxReadings);
    story.readings << TtlReading{at, ttl};
}

void LockStoryTracker::noteOwners(const QByteArray& resource, const DiagnosisFacts& facts, qint64 wallNowMs)
{
    auto it = m_stories.find(resource);
    if (it == m_stories.end() || facts.owners.isEmpty())
        return;
    const OwnerClient& o = facts.owners.constFirst();
    it->ownerClient = o.name.isEmpty()
                          ? QStringLiteral("client %1 (id %2)").arg(escapeBytes(o.address)).arg(o.clientId)
                          : QStringLiteral("client '%1' %2 (id %3)")
                                .arg(escapeBytes(o.name), escapeBytes(o.address))
                                .arg(o.clientId);
    it->ownerClientSeenMs = wallNowMs;
}

} // namespace lockscope
