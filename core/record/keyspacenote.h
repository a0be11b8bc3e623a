// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

#include <QtGlobal>

namespace lockscope {

// What a key's keyspace events said last of how a holder let it go: an expiry or a delete, with
// when it came and from which master. The Recorder keeps one per resource that had such an event
// (a set is not kept) and reads it when a holder is gone, to tell a release from an expiry.
//
// An event comes on another connection than the reads, so it may arrive after a read that the
// server answered later: a key read holding the next holder's token can still be followed by the
// previous holder's expiry. endFor() weighs that.
class KeyspaceNote
{
public:
    // How long a key's expiry on a master outweighs a delete there (expiredOn()).
    static constexpr qint64 expiryHoldsMs = 2000;
    // How much later than a read the server answered after it a keyspace event may still come.
    static constexpr qint64 eventLagMs = 250;
    // A lease ends by its TTL within this of the deadline its reads implied.
    static constexpr qint64 dueToleranceMs = 100;

    // The first event: an expiry (expired, evicted) or a delete.
    KeyspaceNote(bool expiry, int master, qint64 atMs, qint64 wallMs);

    // A later event for the same key, folded in (the times: monotonic and wall clock, now).
    void add(bool expiry, int master, qint64 atMs, qint64 wallMs);
    // Told again now: after what a reading older than the note added (an extension), which came
    // in later; the end it tells comes after that, as it did.
    void tellAgain();

    bool isExpiry() const { return m_expiry; }
    int master() const { return m_master; }
    // An expiry: every master it came from in a row (bit i, master i; beyond 64 not kept).
    quint64 expiredOn() const { return m_expiredOn; }

    // Whether `view` may have been read before this note came: a read that went out earlier (or
    // at an unknown time) may have been answered before the event and still be delivered after
    // the note (the events come on another connection, and through another queue).
    bool mayPredate(const LockView& view) const;

    struct End
    {
        enum class How
        {
            Unknown,
            Expired,
            Released
        };
        How how = How::Unknown;
        qint64 atMs = 0;   // monotonic: when the event came
        qint64 wallMs = 0; // the wall clock then
    };
    // How the holder whose episode began at `startMs` (monotonic), seen on the masters of
    // `everHolders`, with its last copy due to expire at `deadlineMs` (monotonic, -1: unknown)
    // let the key go, as far as the note tells.
    End endFor(qint64 startMs, quint64 everHolders, qint64 deadlineMs) const;

private:
    // Said of a holder that began at `startMs`, by a master it was seen on.
    static bool from(int master, qint64 atMs, qint64 startMs, quint64 everHolders);

    qint64 m_atMs;
    qint64 m_wallMs;
    quint64 m_expiredOn = 0;
    // A delete that came after an expiry from the same master: of a key written there since, so
    // not of the expired holder; kept for the holder that wrote it (-1: none).
    qint64 m_laterDeleteAtMs = -1;
    qint64 m_laterDeleteWallMs = 0;
    int m_master;
    int m_laterDeleteMaster = -1;
    bool m_expiry;
};

} // namespace lockscope
