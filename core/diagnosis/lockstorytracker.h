#pragma once

#include "diagnosis/diagnosisfacts.h"
#include "diagnosis/lockstory.h"
#include "monitor/lockview.h"

#include <QHash>

namespace lockscope {

// Builds each lock's LockStory from the live views as they change: when its holder was first seen,
// each extension (a TTL read higher than the previous reading, counted down, allows), the lease.
// A new token starts a new story; a lock that goes away forgets its story. What this process did
// not see (before it started, between two reads) it cannot count: the recording fills that in.
class LockStoryTracker
{
public:
    // A TTL read at most this much above what the previous reading counted down to is the same
    // lease seen again (two reads, two round trips), not an extension.
    static constexpr qint64 extensionToleranceMs = 60;

    void observe(const LockBatch& batch, qint64 wallNowMs, qint64 monotonicNowMs);
    void observe(const LockView& view, qint64 wallNowMs, qint64 monotonicNowMs);
    void forget(const QByteArray& resource) { m_stories.remove(resource); }
    // The owner's connection matched by a DiagnosisReader: remembered so that its disappearance
    // can be told later.
    void noteOwners(const QByteArray& resource, const DiagnosisFacts& facts, qint64 wallNowMs);

    LockStory story(const QByteArray& resource) const { return m_stories.value(resource); }
    int size() const { return int(m_stories.size()); }

    // The longest TTL the masters holding `view.token` showed at the view's computation; -1: none.
    static qint64 ttlOf(const LockView& view);

private:
    QHash<QByteArray, LockStory> m_stories;
};

} // namespace lockscope
