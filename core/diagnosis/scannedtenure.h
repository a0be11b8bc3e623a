// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/evidencetrail.h"
#include "record/recordevent.h"

#include <QList>
#include <QString>
#include <QVarLengthArray>

namespace lockscope {

// What a recording session's events say of one token, as DoubleGrantScan reads them in.
struct ScannedTenure
{
    QString owner;
    qint64 startMs = 0;
    int holding = 0;
    quint64 holders = 0;
    quint64 everHolders = 0;
    qint64 ttlMs = -1;        // the validity it was seen with (the view's: TTL less the drift allowance)
    qint64 ttlSeenAtMs = -1;  // when: the validity counts from then
    qint64 quorumAtMs = -1;   // when it first held a quorum
    qint64 validUntilMs = -1; // from then, the validity it had (its extensions push it on); -1: no TTL
    qint64 gaveUpAtMs = -1;   // released, force-released or expired: it no longer held it
    bool released = false;    // given up by its holder (not run out): the holder knew it was over
    bool renewed = false;     // extended: its holder meant to keep it (a watchdog, an extend)
    // A connection that was not its holder's deleted it while it was valid (the tracer saw it): the key's
    // going is no release, and its holder goes on believing it holds the lock.
    qint64 deletedByOtherAtMs = -1;
    // A master that let the token go well before its validity ended, with nothing recorded that
    // explains it (no restart, failover or outage of that master): a clock running fast, an eviction.
    int earlyMaster = -1;
    qint64 earlyAtMs = -1;
    // Another token was in its key at the next read, before its validity ended, with no delete or
    // expiry seen: a steal, or a release and re-take too quick to see without keyspace events.
    qint64 replacedAtMs = -1;
    bool replacementTold = false; // an incident names it and its replacer already
    // When each master was last seen taking it (by master; -1: not seen): a restart, failover or
    // outage of a master explains the loss of a copy only if it came after the copy was seen there.
    // Inline for the usual few masters: a pass over a recording makes millions of tenures.
    QVarLengthArray<qint64, 8> joinedAtMs;
    // Masters it left with nothing recorded that explains it, and when: another token on one
    // of them soon after took its place there (a release and re-take between two reads).
    quint64 droppedUnexplained = 0;
    qint64 droppedAtMs = -1;
    // The latest moment a master was seen still holding a copy: its delete ran after it (DeletedAfter).
    qint64 deletedAfterMs = -1;
    int deletedAfterMaster = -1;
    // Its validity surely lasted until then (ValidThrough: its TTLs counted from when they were
    // asked for), where validUntilMs may be later by the reads' delays; -1: not recorded.
    qint64 validThroughMs = -1;
    EvidenceTrail trail;

    // How long after a delete the recorder may see the lock go (a keyspace event, then a read).
    static constexpr qint64 deleteSeenWithinMs = 2000;

    void joined(int master, qint64 atMs)
    {
        if (master >= joinedAtMs.size())
            joinedAtMs.resize(master + 1, -1);
        joinedAtMs[master] = atMs;
    }
    qint64 joinedAt(int master, qint64 otherwise) const
    {
        return master < joinedAtMs.size() && joinedAtMs[master] >= 0 ? joinedAtMs[master] : otherwise;
    }

    // Expiry is read from outside, a little late: early means by more than what reading explains.
    qint64 expirySlackMs() const { return 100 + qMax<qint64>(0, ttlMs) / 50; }
    bool expiredEarly(qint64 atMs) const
    {
        return quorumAtMs >= 0 && validUntilMs >= 0 && atMs < validUntilMs - expirySlackMs();
    }
    // Of the masters in `dropped` (they let the token go at `atMs`), those with no outage, restart
    // or failover in `masterEvents` since the token was seen there: a delete (a release) or an early
    // expiry.
    quint64 unexplainedDrops(quint64 dropped, qint64 atMs, const QList<RecordEvent>& masterEvents) const;
    // The first restart or failover of a master that held the token, since it had its quorum, until
    // `untilMs`; null if none.
    const RecordEvent* topologyChange(qint64 untilMs, const QList<RecordEvent>& masterEvents) const;
    // How long after its holder was last seen at work on it (taking or renewing it) a master that
    // held it went away (down, restarted, failed over); -1: none did. A release in that moment is
    // kept by a master with persistence while its keyspace event and its reply die with the process.
    qint64 quietBeforeLossMs(const QList<RecordEvent>& masterEvents) const;
    // Where its part ends: when it gave the lock up or its validity ran out, whichever came first
    // (with no TTL, `lastMs`, the last moment the session watched).
    qint64 endBy(qint64 lastMs) const
    {
        const qint64 end = gaveUpAtMs >= 0 ? qMin(lastMs, gaveUpAtMs) : lastMs;
        return validUntilMs >= 0 ? qMin(end, validUntilMs) : end;
    }
    // A DeletedAfter or ValidThrough event about it: whether it moved deletedAfterMs or
    // validThroughMs on.
    bool noteAnchor(const RecordEvent& e);
    // Whether its end at `endMs` is its validity running out unreleased (a release seen up to
    // `releaseSeenWithinMs` late can no longer come by `lastMs`). Such an end is timed by the TTL,
    // not by a sighting: only the allowance for drift and reads (expirySlackMs) blurs it, where a
    // release decided before the other's quorum may be seen up to releaseSeenWithinMs after it.
    bool ranOutBy(qint64 endMs, qint64 lastMs, qint64 releaseSeenWithinMs) const
    {
        return !released && validUntilMs >= 0 && endMs >= validUntilMs &&
               validUntilMs + releaseSeenWithinMs <= lastMs;
    }
    // `cause` of an overlap whose first holder let go (`ranOut`: its validity ran out) `afterMs`
    // after the second was seen on a quorum (`fromMs`): possible, unless a delete of its copy is
    // known to have run after `fromMs` or its validity ran out and is known to have lasted past it.
    QString letGoSoonAfter(qint64 afterMs, qint64 fromMs, bool ranOut, const QString& cause) const;
    // `cause` of a loss, for a holder at work on the lock `quietMs` before its master went away.
    static QString releaseMaybeUnseen(qint64 quietMs, const QString& cause);
    // What an overlap names as the cause for a token replaced in place (replacedAtMs).
    QString causeOfReplacement() const;
    // Why its copies went, told when a second token takes the lock from it: a delete by someone
    // else (the tracer saw it), the restart, failover or outage of a master that held it, else a
    // master that let it go early. `masters`: the session's count (for the evidence line).
    QString causeOfLoss(qint64 untilMs, const QList<RecordEvent>& masterEvents, int masters) const;
    // The first master that let the token go well before its validity ended, unexplained: the
    // cause an overlap names when no restart or failover does (a clock running fast).
    void noteEarly(quint64 unexplained, qint64 atMs);
    // The key went at `atMs` because someone else deleted it, not its holder.
    bool deletedUnder(qint64 atMs) const
    {
        return deletedByOtherAtMs >= 0 && atMs >= deletedByOtherAtMs - deleteSeenWithinMs &&
               atMs - deletedByOtherAtMs <= deleteSeenWithinMs;
    }
};

} // namespace lockscope
