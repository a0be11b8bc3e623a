// SPDX-License-Identifier: Apache-2.0
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
    void forget(const QByteArray& resource);
    // Room for `locks` stories without growing: a table that doubles rehashes all it holds at once.
    void reserve(qsizetype locks) { m_stories.reserve(locks); }
    // The owner's connection matched by a DiagnosisReader: remembered so that its disappearance
    // can be told later.
    void noteOwners(const QByteArray& resource, const DiagnosisFacts& facts, qint64 wallNowMs);

    // The story of `resource` while `token` holds it; none for another holder.
    LockStory story(const HashedKey& resource, const QByteArray& token) const;
    int size() const { return int(m_stories.size()); }

    // The longest TTL the masters holding `view.token` showed at the view's computation; -1: none.
    static qint64 ttlOf(const LockView& view);

private:
    // A LockStory as kept for each of up to a million locks: its latest reading inline (a list of
    // its own was one more heap block per lock, and four readings where one was ever read cost a
    // million locks 48 MB), the owner's connection, known only for locks someone selected, kept
    // apart in m_owners. The holder is known by the hash of its token, which whoever asks for the
    // story has at hand: 64 bytes, where the token itself made 88 (a million locks, 21 MB). Its
    // 32 bits pay for the 8 of the table's key that carry the name's hash.
    struct Kept
    {
        qint64 firstSeenMs = -1;
        qint64 firstExtensionMs = -1;
        qint64 lastExtensionMs = -1;
        qint64 lastExtensionTtlMs = -1;
        qint64 leaseMs = -1;
        TtlReading lastReading;
        quint32 tokenHash = 0; // HashedKey::hashOf(token), valid once firstSeenMs is set
        int extensions : 30 = 0;
        bool hasReading : 1 = false;
        bool ownerNoted : 1 = false; // m_owners has an entry for it

        bool holds(quint32 hash) const { return firstSeenMs >= 0 && tokenHash == hash; }
    };
    static_assert(sizeof(void*) != 8 || sizeof(Kept) <= 64);
    struct OwnerSeen
    {
        QString client;
        qint64 seenMs = -1;
    };

    // A new holder (or none): the story starts over, the owner's connection with it.
    void restart(const QByteArray& resource, Kept& kept);

    QHash<HashedKey, Kept> m_stories;
    QHash<QByteArray, OwnerSeen> m_owners;
};

} // namespace lockscope
