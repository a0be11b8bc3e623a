// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantscan.h"

#include "base/bytesdisplay.h"
#include "diagnosis/evidenceline.h"
#include "diagnosis/fencewatch.h"
#include "diagnosis/lapsedhandover.h"
#include "diagnosis/lapsedholders.h"
#include "diagnosis/scannedtenure.h"
#include "diagnosis/tenuretable.h"
#include "record/historyjson.h"

#include <QHash>

#include <bit>
#include <optional>

namespace lockscope {

// One session's events (a session's masters are fixed: its quorum too).
//
// A token that holds a quorum holds the lock until its validity ends or it gives the lock up: a
// second token reaching a quorum before then means two holders at once, whether or not the first
// still shows on a quorum (a restarted master forgot its copy; a failover lost it).
class DoubleGrantScan::Impl
{
    using Kind = RecordEvent::Kind;

    using Holder = ScannedTenure;

    static bool isStart(Kind k) { return k == Kind::Seen || k == Kind::Acquired || k == Kind::Contested; }

    static bool isGiveUp(Kind k)
    {
        return k == Kind::Released || k == Kind::ForceReleased || k == Kind::Expired;
    }

public:
    Impl(const QByteArray& resource, int masters, qint64 lastMs, const QList<RecordEvent>& masterEvents,
         QList<SafetyIncident>& out)
        : m_resource(resource), m_total(masters), m_needed(masters / 2 + 1), m_lastMs(lastMs),
          m_masterEvents(masterEvents), m_out(out), m_fences(resource, masters, masterEvents, out)
    {}
    ~Impl()
    {
        for (const OpenIncident& o : std::as_const(m_open))
            settle(o);
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    // Nothing held, nothing open, no expiry whose handover is still to come: forgetting the scan
    // now loses nothing (a pass over a whole recording keeps only the scans that matter).
    bool idle(qint64 nowMs) const
    {
        if (!m_open.isEmpty() || !m_fences.idle())
            return false;
        if (m_lastExpired && m_lastExpired->takenSoonAfter(nowMs))
            return false;
        for (const Holder& h : m_holders)
            if (h.holding > 0 ||
                (h.gaveUpAtMs < 0 && h.quorumAtMs >= 0 && (h.validUntilMs < 0 || h.validUntilMs > nowMs)))
                return false;
        return true;
    }

    // The session watched until `ms` with nothing new: the ends of open incidents move on.
    void watchedUntil(qint64 ms)
    {
        m_lastMs = qMax(m_lastMs, ms);
        for (const OpenIncident& o : std::as_const(m_open))
            settle(o);
    }

    void add(const RecordEvent& e)
    {
        m_lastMs = qMax(m_lastMs, e.timeMs);
        if (e.isMasterEvent())
            return; // the session's list (m_masterEvents) has them
        if (m_fences.add(e))
            return; // a counter's reading (a grant it only notes)
        if (isTracedKind(e.kind))
            return traced(e);
        if (e.kind == Kind::DeletedAfter || e.kind == Kind::ValidThrough) {
            if (const auto it = m_holders.find(e.token); it != m_holders.end() && it->noteAnchor(e))
                settleIncidentsOf(e.token);
            return;
        }
        if (isEvidenceOnly(e.kind))
            return;
        // The recorder stores a replacement as the new holder's start alone (RecordingReader puts
        // the `replaced` back for a history; a pass over the whole file meets the start first).
        // The holder it follows is the last one started, or, once that one went, the first held
        // beside it.
        if (e.kind == Kind::Seen || e.kind == Kind::Acquired) {
            const auto holdingNow = [this](const QByteArray& token) {
                const auto it = m_holders.constFind(token);
                return it != m_holders.cend() && it->holding > 0 && it->gaveUpAtMs < 0;
            };
            while (!m_main.isEmpty() && !holdingNow(m_main) && !m_beside.isEmpty())
                m_main = m_beside.takeFirst();
            if (!m_main.isEmpty() && e.token != m_main && !m_beside.contains(e.token) && holdingNow(m_main)) {
                RecordEvent replaced;
                replaced.timeMs = e.timeMs;
                replaced.kind = Kind::Replaced;
                replaced.resource = e.resource;
                replaced.token = m_main;
                add(replaced);
            }
            m_main = e.token;
            m_beside.clear();
        } else if (e.kind == Kind::Contested && !m_beside.contains(e.token)) {
            m_beside << e.token;
        }
        if (isStart(e.kind) && m_holders.contains(e.token))
            closeIncidentsOf(e.token); // a new tenure of the same token: the old one's end is known
        if (isStart(e.kind) && m_holders.size() >= m_pruneAt)
            prune(e.timeMs);
        if (!isStart(e.kind) && !m_holders.contains(e.token))
            return; // its tenure is over and forgotten (prune), or began before this session
        if (e.holders != 0 && (e.holding > 0 || e.kind == Kind::Holders))
            m_holders.takeMasters(e, m_masterEvents);
        Holder& h = m_holders[e.token];
        if (isStart(e.kind)) {
            h = Holder();
            h.owner = e.owner;
            h.startMs = e.timeMs;
            h.ttlMs = e.ttlMs;
            h.ttlSeenAtMs = e.timeMs;
        }
        if (h.owner.isEmpty())
            h.owner = e.owner;
        h.trail.add(e);
        h.everHolders |= e.holders;
        if (e.kind == Kind::Extended && e.ttlMs > 0) {
            h.renewed = true;
            if (h.quorumAtMs < 0) { // the validity its quorum will count from
                h.ttlMs = e.ttlMs;
                h.ttlSeenAtMs = e.timeMs;
            } else {
                h.validUntilMs = qMax(h.validUntilMs, e.timeMs + e.ttlMs);
                settleIncidentsOf(e.token);
            }
        }
        if (e.kind == Kind::Expired && h.expiredEarly(e.timeMs) && h.gaveUpAtMs < 0) {
            // Gone from its last masters before its validity ended: not given up, its holder still
            // counts on it (a clock running fast); another token on a quorum now is a second holder.
            h.noteEarly(h.unexplainedDrops(h.holders, e.timeMs, m_masterEvents), e.timeMs);
            h.holding = 0;
            h.holders = 0;
            return;
        }
        // Replaced once its validity was over: the next holder's SET NX found the key expired (a
        // lazy expiry the server told in one breath with the new write). An expiry, as far as the
        // old holder's lease goes.
        const bool ranOut = e.kind == Kind::Replaced && h.quorumAtMs >= 0 && h.validUntilMs >= 0 &&
                            e.timeMs >= h.validUntilMs - h.expirySlackMs();
        // `lost` with no restart, failover or outage of a master after the token was seen there (a
        // recorder before issue #48's fix called a release lost after any restart during the
        // episode, also of a master the token reached only later): a release.
        const quint64 lostFrom = h.holders ? h.holders : h.everHolders;
        const bool lostUnexplained = e.kind == Kind::Lost && lostFrom &&
                                     h.unexplainedDrops(lostFrom, e.timeMs, m_masterEvents) == lostFrom;
        if (e.kind == Kind::Released && h.deletedUnder(e.timeMs)) {
            h.holding = 0;
            h.holders = 0;
            return;
        }
        if (isGiveUp(e.kind) || ranOut || lostUnexplained) {
            // Only its first end counts: a copy left on a master that was down during the release
            // expires later, when the lock is long someone else's.
            if (h.gaveUpAtMs < 0) {
                h.gaveUpAtMs = ranOut ? qMin(e.timeMs, h.validUntilMs) : e.timeMs;
                h.released = e.kind == Kind::Released || e.kind == Kind::ForceReleased || lostUnexplained;
                if ((e.kind == Kind::Expired || ranOut) && h.quorumAtMs >= 0)
                    m_lastExpired = LapsedHandover{e.token, e.timeMs, h.ttlMs, h.renewed, {}, 0};
            }
            h.holding = 0;
            h.holders = 0;
            closeIncidentsOf(e.token);
            return;
        }
        if (e.kind == Kind::Lost || e.kind == Kind::Replaced) { // its holder did not give it up
            if (e.kind == Kind::Replaced)
                h.replacedAtMs = e.timeMs;
            h.noteEarly(h.unexplainedDrops(h.holders, e.timeMs, m_masterEvents), e.timeMs);
            h.holding = 0;
            h.holders = 0;
            return;
        }
        if (e.holding > 0 || e.kind == Kind::Holders) {
            const quint64 unexplained = h.unexplainedDrops(h.holders & ~e.holders, e.timeMs, m_masterEvents);
            for (quint64 joined = e.holders & ~h.holders; joined; joined &= joined - 1)
                h.joined(std::countr_zero(joined), e.timeMs);
            if (unexplained) {
                h.droppedUnexplained |= unexplained;
                h.droppedAtMs = e.timeMs;
            }
            h.holders = e.holders;
            if (unexplained && h.quorumAtMs >= 0 && h.gaveUpAtMs < 0 && e.holding < m_needed &&
                !h.deletedUnder(e.timeMs)) {
                // Gone, below its quorum, from masters nothing happened to: a release reaching the
                // masters (one that was down meanwhile keeps a copy until it expires). Given up.
                // Past its validity it is the masters' own expiries, read one after the other (each
                // counts from its own write): expired, and the next token's lock a handover.
                const bool expiring = h.validUntilMs >= 0 && !h.expiredEarly(e.timeMs);
                h.gaveUpAtMs = e.timeMs;
                h.released = !expiring;
                if (expiring)
                    m_lastExpired = LapsedHandover{e.token, e.timeMs, h.ttlMs, h.renewed, {}, 0};
                h.holding = e.holding;
                closeIncidentsOf(e.token);
                return;
            }
            h.noteEarly(unexplained, e.timeMs);
        }
        h.holding = e.holding;
        if (h.holding >= m_needed && h.quorumAtMs < 0 && h.gaveUpAtMs < 0) {
            h.quorumAtMs = e.timeMs;
            // Its validity counts from when it was read, not from when the quorum was: a master
            // read late (reconnecting) put the deadline hundreds of ms past the lock's own, and
            // its expiry looked early (a clock running fast), the next holder a second at once.
            if (e.ttlMs > 0) {
                h.ttlMs = e.ttlMs;
                h.ttlSeenAtMs = e.timeMs;
            }
            h.validUntilMs = h.ttlMs > 0 ? h.ttlSeenAtMs + h.ttlMs : -1;
            reachedQuorum(e.token, e);
        }
    }

private:
    struct OpenIncident
    {
        qsizetype index = -1; // in m_out
        QByteArray first;
        QByteArray second;
        bool handover = false; // the first had given it up: only the second's end bounds it
        // Proven by the two quorums alone, as long as the first does not end soon after the second
        // was seen (settle): `cause` is what it says then.
        bool byQuorums = false;
        QString cause;
    };

    // Forgets the tokens that can no longer be part of an incident: given up or past their
    // validity, in no open incident, and not the last to expire. A lock that changes hands a
    // million times in a recording keeps a handful, not a million.
    void prune(qint64 nowMs)
    {
        m_holders.removeIf([&](const QByteArray& token, const Holder& h) {
            const bool over =
                h.gaveUpAtMs >= 0 ||
                (h.holding == 0 && (h.quorumAtMs < 0 || (h.validUntilMs >= 0 && h.validUntilMs < nowMs)));
            const bool needed = (m_lastExpired && m_lastExpired->token == token) ||
                                std::any_of(m_open.cbegin(), m_open.cend(), [&](const OpenIncident& o) {
                                    return o.first == token || o.second == token;
                                });
            return over && !needed;
        });
        m_pruneAt = qMax<qsizetype>(16, m_holders.size() * 2);
    }

    QString line(const RecordEvent& e) const { return EvidenceLine::of(e, m_total); }

    static QByteArray toldKey(SafetyIncident::Kind kind, const QByteArray& first, const QByteArray& second)
    {
        return QByteArray::number(int(kind)) + '/' + first.toBase64() + '/' + second.toBase64();
    }

    // What the lock tracer saw a connection do: evidence about the holders, never a change of who
    // holds the lock (the recorder's own events say that).
    void traced(const RecordEvent& e)
    {
        if (e.kind == Kind::TracedRefused)
            return; // turned away: it never held the lock
        if (e.kind == Kind::TracedHolder) {
            if (m_tokenOf.size() >= maxTracedConnections)
                m_tokenOf.clear();
            m_tokenOf.insert(e.owner, e.token);
        }
        if (const auto it = m_holders.find(e.token); it != m_holders.end())
            it->trail.add(e);
        if (e.kind == Kind::TracedAlive || e.kind == Kind::TracedGone) {
            lapsedHolderTold(e);
        } else if (e.kind == Kind::TracedStale) {
            stillAtWork(e.token, e);
        } else if (e.kind == Kind::TracedDelete) {
            const QByteArray deleter = m_tokenOf.value(e.owner);
            deletedByNonHolder(e, deleter);
            if (!deleter.isEmpty() && deleter != e.token)
                stillAtWork(deleter, e);
        }
    }

    static constexpr qsizetype maxTracedConnections = 4096;

    // `old`'s holder sent a command on the lock at e.timeMs with its token or from its connection (a
    // release or extend with a token that no longer held it, a delete): it was still at work,
    // believing it held the lock. A tenure that ended without a release, and a token that reached a
    // quorum after `old` and by then: two holders at once, proven (a possible handover becomes one).
    // A holder that released its lock knew it was over; what it sends after proves nothing.
    void stillAtWork(const QByteArray& old, const RecordEvent& e)
    {
        const auto it = m_holders.constFind(old);
        if (it == m_holders.cend() || it->quorumAtMs < 0 || it->released || it->quorumAtMs > e.timeMs)
            return;
        const QByteArray next = m_holders.firstQuorumAfter(old, it->quorumAtMs, e.timeMs);
        if (next.isEmpty())
            return;
        const Holder second = m_holders.value(next);
        const qint64 toMs = qMax(second.quorumAtMs, qMin(e.timeMs, second.endBy(m_lastMs)));
        const QString cause = QStringLiteral("its holder was still at work after %1 took the lock: the "
                                             "tracer saw it at %2 (%3)")
                                  .arg(escapeBytes(next), HistoryJson::time(e.timeMs), e.detail);
        qsizetype index = -1;
        for (SafetyIncident::Kind kind :
             {SafetyIncident::Kind::HandoverUnderLiveHolder, SafetyIncident::Kind::MajorityOverlap,
              SafetyIncident::Kind::FailoverLoss, SafetyIncident::Kind::OverwrittenWhileHeld})
            if (index < 0)
                index = m_told.value(toldKey(kind, old, next), -1);
        const bool fresh = index < 0;
        if (fresh) {
            RecordEvent at = e;
            at.timeMs = second.quorumAtMs;
            report(old, next, at, SafetyIncident::Kind::HandoverUnderLiveHolder,
                   SafetyIncident::Confidence::Proven, cause);
            index = m_out.size() - 1;
        }
        SafetyIncident& i = m_out[index];
        if (fresh || i.confidence != SafetyIncident::Confidence::Proven) {
            // Proven up to the last command the tracer saw of the old holder (at most the second's
            // end, which bounded it until now).
            i.confidence = SafetyIncident::Confidence::Proven;
            i.cause = cause;
            i.toMs = toMs;
            m_open.removeIf([index](const OpenIncident& o) { return o.index == index; });
        } else if (i.kind == SafetyIncident::Kind::HandoverUnderLiveHolder) {
            i.toMs = qMax(i.toMs, toMs);
        }
        if (i.evidence.size() < maxTracedEvidence)
            i.evidence << line(e);
    }

    static constexpr qsizetype maxTracedEvidence = 64;

    // A connection that was not the holder's deleted the lock while its holder's validity ran.
    void deletedByNonHolder(const RecordEvent& e, const QByteArray& deleter)
    {
        const auto it = m_holders.constFind(e.token);
        if (it == m_holders.cend() || it->quorumAtMs < 0 || deleter == e.token ||
            m_told.contains(toldKey(SafetyIncident::Kind::DeletedByNonHolder, e.token, deleter)))
            return;
        const Holder held = it.value();
        // Its end, when the recorder saw it already, is this delete's doing.
        if ((held.validUntilMs >= 0 && held.validUntilMs <= e.timeMs) ||
            (held.gaveUpAtMs >= 0 && held.gaveUpAtMs < e.timeMs - ScannedTenure::deleteSeenWithinMs))
            return;
        report(
            e.token, deleter, e, SafetyIncident::Kind::DeletedByNonHolder, SafetyIncident::Confidence::Proven,
            QStringLiteral("deleted while %1 held it (%2)").arg(escapeBytes(e.token), e.detail) +
                (held.validUntilMs >= 0
                     ? QStringLiteral(", %1 ms before its validity ended").arg(held.validUntilMs - e.timeMs)
                     : QString()) +
                (deleter.isEmpty()
                     ? QString()
                     : QStringLiteral("; that connection took %1 before").arg(escapeBytes(deleter))));
        SafetyIncident& i = m_out.last();
        if (i.secondOwner.isEmpty())
            i.secondOwner = e.owner;
        // Its holder did not give the lock up: the release the recorder saw, if it saw it first, was
        // this delete. Another token taking the lock before its validity ends holds it at once.
        Holder& h = m_holders[e.token];
        h.deletedByOtherAtMs = e.timeMs;
        if (h.released && h.gaveUpAtMs >= e.timeMs - ScannedTenure::deleteSeenWithinMs) {
            h.gaveUpAtMs = -1;
            h.released = false;
        }
        // Its holder goes on believing it holds a lock anyone can take, until its validity ends.
        i.toMs = held.validUntilMs >= 0 ? held.validUntilMs : e.timeMs;
        i.evidence << line(e);
        m_open.removeLast();
    }

    // `token` holds a quorum from now: any other still valid, never given up, holds it too.
    void reachedQuorum(const QByteArray& token, const RecordEvent& e)
    {
        if (m_total == 0)
            return; // its session's masters are not in the file: no quorum to judge by
        bool overlapped = false;
        QByteArrayList toldReplaced;
        for (auto it = m_holders.cbegin(); it != m_holders.cend(); ++it) {
            const Holder& first = it.value();
            if (it.key() == token || first.quorumAtMs < 0 || first.gaveUpAtMs >= 0 || first.replacementTold ||
                (first.validUntilMs >= 0 && first.validUntilMs <= e.timeMs))
                continue;
            // A quorum each (on one master, a Sentinel group's primary, the one). A first token
            // replaced in place may have been released and re-taken between two reads (the
            // delete's keyspace event can come after the read that shows the next holder): only
            // possible, restart or not. So is a lone copy whose holder was at work on it just before
            // its master went away (a release kept on disk, never told). Else proven.
            const bool unseenHandover = first.replacedAtMs >= 0;
            const bool failoverLoss =
                !unseenHandover && m_total == 1 && first.topologyChange(e.timeMs, m_masterEvents);
            const qint64 quiet = failoverLoss ? first.quietBeforeLossMs(m_masterEvents) : -1;
            const bool releaseUnseen = quiet >= 0 && quiet < DoubleGrantScan::releaseSeenWithinMs;
            const SafetyIncident::Kind kind = unseenHandover ? SafetyIncident::Kind::OverwrittenWhileHeld
                                              : failoverLoss ? SafetyIncident::Kind::FailoverLoss
                                                             : SafetyIncident::Kind::MajorityOverlap;
            const QString loss = unseenHandover ? first.causeOfReplacement()
                                                : first.causeOfLoss(e.timeMs, m_masterEvents, m_total);
            const QString cause = releaseUnseen ? ScannedTenure::releaseMaybeUnseen(quiet, loss) : loss;
            report(it.key(), token, e, kind,
                   unseenHandover || releaseUnseen ? SafetyIncident::Confidence::Possible
                                                   : SafetyIncident::Confidence::Proven,
                   cause, !unseenHandover && !releaseUnseen);
            overlapped = true;
            if (unseenHandover)
                toldReplaced << it.key();
        }
        // A token replaced in place is told once, with the token that replaced it: the holders
        // after that one took the lock from the replacer, not from it.
        for (const QByteArray& t : std::as_const(toldReplaced))
            m_holders[t].replacementTold = true;
        std::optional<LapsedHandover> expired = std::exchange(m_lastExpired, std::nullopt);
        // A handover by expiry soon after it (within the old lease's length): the old holder may
        // have been paused past its lease. Possible, unless the tracer saw it alive (LapsedHandover).
        if (!overlapped && expired && expired->token != token && expired->takenSoonAfter(e.timeMs)) {
            expired->next = token;
            expired->takenAtMs = e.timeMs;
            const RecordEvent* told = m_lapsed.about(expired->token, e.timeMs);
            report(expired->token, token, e, SafetyIncident::Kind::HandoverUnderLiveHolder,
                   expired->confidence(told), expired->cause(told));
            if (m_handovers.size() >= maxTracedConnections)
                m_handovers.clear();
            m_handovers.insert(expired->token, {m_out.size() - 1, *expired});
        }
    }

    // The tracer's word on a lapsed holder: kept for its handover to come, or given to one told.
    void lapsedHolderTold(const RecordEvent& e)
    {
        m_lapsed.note(e);
        const auto it = m_handovers.constFind(e.token);
        if (it == m_handovers.cend())
            return;
        SafetyIncident& i = m_out[it->index];
        const RecordEvent* told = m_lapsed.about(e.token, i.fromMs);
        if (!told || i.confidence == SafetyIncident::Confidence::Proven)
            return;
        if (i.evidence.size() < maxTracedEvidence)
            i.evidence << line(e);
        i.confidence = qMax(i.confidence, it->handover.confidence(told));
        i.cause = it->handover.cause(told);
    }

    // `byQuorums`: proven by the two quorums alone, unless the first ends soon after (settle).
    void report(const QByteArray& firstToken, const QByteArray& secondToken, const RecordEvent& e,
                SafetyIncident::Kind kind, SafetyIncident::Confidence confidence, const QString& cause,
                bool byQuorums = false)
    {
        const Holder first = m_holders.value(firstToken);
        const Holder second = m_holders.value(secondToken);
        SafetyIncident i;
        i.kind = kind;
        i.confidence = confidence;
        i.resource = m_resource;
        i.firstToken = firstToken;
        i.secondToken = secondToken;
        i.firstOwner = first.owner;
        i.secondOwner = second.owner;
        i.fromMs = e.timeMs;
        i.cause = cause;
        const auto format = [this](const RecordEvent& r) { return line(r); };
        i.evidence << first.trail.lines(format);
        for (const RecordEvent& m : std::as_const(m_masterEvents))
            if (m.timeMs >= first.startMs && m.timeMs <= e.timeMs)
                i.evidence << line(m);
        i.evidence << second.trail.lines(format);
        m_told.insert(toldKey(kind, firstToken, secondToken), m_out.size());
        m_open << OpenIncident{m_out.size(), firstToken,
                               secondToken,  kind == SafetyIncident::Kind::HandoverUnderLiveHolder,
                               byQuorums,    cause};
        m_out << i;
        settle(m_open.last());
    }

    // Where a token's part ends (ScannedTenure::endBy), without copying its tenure (settle runs on
    // every extension of one).
    qint64 endOf(const QByteArray& token) const
    {
        const auto it = m_holders.constFind(token);
        return (it == m_holders.cend() ? Holder() : *it).endBy(m_lastMs);
    }

    // Whether a token's part is over by the last moment watched (given up, or its validity out).
    bool ended(const QByteArray& token) const
    {
        const auto it = m_holders.constFind(token);
        return it == m_holders.cend() || it->gaveUpAtMs >= 0 ||
               (it->validUntilMs >= 0 && it->validUntilMs <= m_lastMs);
    }

    void settle(const OpenIncident& o) const
    {
        SafetyIncident& i = m_out[o.index];
        const qint64 second = endOf(o.second);
        const qint64 first = endOf(o.first);
        i.toMs = qMax(i.fromMs, o.handover ? second : qMin(first, second));
        if (!o.byQuorums)
            return;
        // The first gave the lock up soon after the second was seen on a quorum: the second's writes
        // went to masters the first no longer held, and the record sees a release a little later
        // than it happens. One decided before the second took the lock looks the same: possible,
        // not proven. A validity that ran out is in doubt only within the drift allowance.
        // (A second still holding holds past the last event, even when that event is the first's end.)
        // Unless a master ran the first's delete after the second's quorum (DeletedAfter), or a
        // validity that ran out is known to outlast it whatever the reads' delays (ValidThrough).
        const auto h = m_holders.constFind(o.first);
        const qint64 seen = DoubleGrantScan::releaseSeenWithinMs;
        const bool ranOut = h != m_holders.cend() && h->ranOutBy(first, m_lastMs, seen);
        const bool soonOver = ended(o.first) && (first < second || !ended(o.second)) &&
                              first - i.fromMs < (ranOut ? h->expirySlackMs() : seen);
        const bool anchored = h != m_holders.cend() &&
                              (h->deletedAfterMs > i.fromMs || (ranOut && h->validThroughMs > i.fromMs));
        i.confidence =
            soonOver && !anchored ? SafetyIncident::Confidence::Possible : SafetyIncident::Confidence::Proven;
        i.cause = soonOver && h != m_holders.cend()
                      ? h->letGoSoonAfter(first - i.fromMs, i.fromMs, ranOut, o.cause)
                      : o.cause;
    }

    void settleIncidentsOf(const QByteArray& token)
    {
        for (const OpenIncident& o : std::as_const(m_open))
            if (o.first == token || o.second == token)
                settle(o);
    }

    // `token`'s part is over: its incidents' ends are known.
    void closeIncidentsOf(const QByteArray& token)
    {
        settleIncidentsOf(token);
        m_open.removeIf([&](const OpenIncident& o) { return o.first == token || o.second == token; });
    }

    QByteArray m_resource;
    int m_total;
    int m_needed;
    qint64 m_lastMs;
    const QList<RecordEvent>& m_masterEvents; // the session's restarts, failovers and outages so far
    QList<SafetyIncident>& m_out;
    FenceWatch m_fences;
    TenureTable m_holders;
    QByteArray m_main;       // the token the recorder follows (its last start)
    QByteArrayList m_beside; // tokens held beside it (`contested`)
    QList<OpenIncident> m_open;
    std::optional<LapsedHandover> m_lastExpired;
    qsizetype m_pruneAt = 16;
    // What the tracer saw: the token each connection last took, by its address.
    QHash<QString, QByteArray> m_tokenOf;
    LapsedHolders m_lapsed;
    struct ToldHandover
    {
        qsizetype index = -1; // in m_out
        LapsedHandover handover;
    };
    QHash<QByteArray, ToldHandover> m_handovers; // by the token whose lease ran out
    // The incidents this scan reported, by kind and tokens (toldKey): where evidence adds to one.
    QHash<QByteArray, qsizetype> m_told;
};

DoubleGrantScan::DoubleGrantScan(const QByteArray& resource, int masters, qint64 lastMs,
                                 const QList<RecordEvent>& masterEvents, QList<SafetyIncident>& out)
    : d(std::make_unique<Impl>(resource, masters, lastMs, masterEvents, out))
{}

DoubleGrantScan::~DoubleGrantScan() = default;

void DoubleGrantScan::add(const RecordEvent& event)
{
    d->add(event);
}

void DoubleGrantScan::watchedUntil(qint64 ms)
{
    d->watchedUntil(ms);
}

bool DoubleGrantScan::idle(qint64 nowMs) const
{
    return d->idle(nowMs);
}

bool DoubleGrantScan::explainsALoss(RecordEvent::Kind kind)
{
    return kind == RecordEvent::Kind::MasterRestarted || kind == RecordEvent::Kind::Failover ||
           kind == RecordEvent::Kind::MasterDown;
}

} // namespace lockscope
