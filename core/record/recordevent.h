// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

namespace lockscope {

// One change the flight recorder saw, as it is stored (one row of `events`). A resource event has
// a resource; a master event (down, up, restart, failover) has none and names its master.
struct RecordEvent
{
    // Stored as numbers: never renumber, only append (the schema's version does not cover them).
    enum class Kind : int
    {
        Seen = 1,          // held when recording began (first seen, not seen being taken)
        Acquired = 2,      // a new holder appeared while recording
        Extended = 3,      // the TTL went up on a master holding the same token
        Released = 4,      // deleted before it expired
        Expired = 5,       // gone at (or after) its expiry
        Replaced = 6,      // another token took its place without a gap we saw
        Lost = 7,          // gone before expiry after a master that held it restarted or failed over
        ForceReleased = 8, // an administrator's force-release (from the audit log, with its id)
        TypeChanged = 9,   // the key's type changed on a master
        Holders = 10,      // the set of masters holding the token changed
        AtRisk = 11,       // a master holding it restarted or failed over
        RiskCleared = 12,  // back on every master it was at risk on
        Contested = 13,    // another token held beside the one held (its own masters): two at once
        MasterDown = 20,
        MasterUp = 21,
        MasterRestarted = 22, // new run_id
        Failover = 23,        // a Sentinel or cluster primary changed
        FailoverReport = 24,  // what the failover lost, once the new primary was read
        Notified = 30,        // a notification rule started to hold (detail: its text)
        // What the lock tracer (issue #43) saw a connection do, kept as evidence beside the record of
        // the lock's state (not a change of it). `owner`: the connection's address; `detail`: in words.
        TracedHolder = 31,    // that connection took `token`
        TracedStale = 32,     // it released or extended with `token`, which no longer held the lock
        TracedDelete = 33,    // it deleted the lock held by `token` without being that holder's connection
        TracedOverwrite = 34, // it wrote `token` over the holder's with a plain write
        // When another token took the lock after `token`'s lease ran out unreleased, the connection
        // that had taken `token` (`owner`) was still open: its holder alive, perhaps paused or cut off...
        TracedAlive = 35,
        TracedGone = 36, // ...or already closed: its holder exited or was killed
        // A fencing counter read `token` (its value, decimal) on `master`: Redisson's fenced-lock
        // counter (resource: its lock) or a key under a "fencing" pattern (resource: the counter);
        // `detail` names the counter's key. Recorded when the value changed.
        FenceCounter = 37,
        // Clients waiting for the lock, where its layout records them (a Redisson lock's channel
        // subscribers, its fair queue): `token` holds the count (decimal), recorded when it changed.
        Waiters = 38,
        // The tracer saw the connection `owner` try to take the lock with `token` and be turned away
        // (someone else held it): contention, not a change of holder.
        TracedRefused = 39,
        // `master` deleted its copy of `token`'s lock no sooner than `timeMs`: its keyspace event came
        // after the answer to a PING sent then (KeyspaceSubscriber). Recorded for a lock held beside
        // another (contested), where it can prove the first holder still held after the second took a
        // quorum, to the millisecond the recorder's own delay in seeing a release would blur.
        DeletedAfter = 40,
        // `token`'s lease, held beside another token that has just been seen on a quorum, lasts at
        // least `ttlMs` from `timeMs`: its copies' TTLs counted from when the reads that saw them were
        // sent (validityFloorMs), a bound no delay of the replies or the recorder can stretch. Where its
        // validity runs out unreleased soon after the other's quorum, it proves the two overlapped.
        ValidThrough = 41,
    };

    qint64 timeMs = 0; // wall clock, ms since the epoch (UTC)
    Kind kind = Kind::Seen;
    QByteArray resource; // empty for a master event
    int master = -1;     // index into the session's masters; -1: the resource as a whole
    QByteArray token;
    QString owner;
    qint64 ttlMs = -1;   // validity left when seen; -1: none or unknown
    int holding = 0;     // masters holding the token
    quint64 holders = 0; // bit i: master i holds it (masters beyond 64 are not in the mask)
    QString detail;      // in words: "string → hash", "run_id a1… → 9c…", the at-risk reason
    QString auditId;     // ForceReleased: the audit record's id

    bool isMasterEvent() const { return resource.isEmpty(); }
    bool operator==(const RecordEvent&) const = default;
};

// "extended", "force-released", "master-down", ... (what `lockctl history --json` prints).
QString recordEventKindName(RecordEvent::Kind kind);
// Said beside the lock's story, not part of it: a notification, what the tracer saw. Episodes and
// tenures are built without them.
bool isEvidenceOnly(RecordEvent::Kind kind);
// What the lock tracer saw (TracedHolder ... TracedGone, TracedRefused).
bool isTracedKind(RecordEvent::Kind kind);
// The kind stored as `number`, or false when it is not one this version knows.
bool recordEventKindFromNumber(int number, RecordEvent::Kind* kind);
// RecordEvent::holders of these master indexes (a view's holders).
quint64 holdersMask(const QList<int>& masters);
// A fencing counter's new value on `master`, for `resource` (FenceCounter).
RecordEvent fenceCounterEvent(int master, const QByteArray& resource, const QByteArray& counter,
                              qint64 value);
// `master` deleted `token`'s copy of `resource` after `ranAfterMs` (DeletedAfter).
RecordEvent deletedAfterEvent(int master, const QByteArray& resource, const QByteArray& token,
                              qint64 ranAfterMs);
// `token`'s lease on `resource` lasts at least `leftMs` from now (ValidThrough).
RecordEvent validThroughEvent(const QByteArray& resource, const QByteArray& token, qint64 leftMs);
// `count` clients waiting for `resource`, as read on `master` (Waiters).
RecordEvent waitersEvent(int master, const QByteArray& resource, qint64 count);
// The count a Waiters event holds; -1 when it holds none.
qint64 waitersOf(const RecordEvent& event);

using RecordEventList = QList<RecordEvent>;

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::RecordEventList)
