// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/scannedtenure.h"

#include "diagnosis/evidenceline.h"
#include "record/historyjson.h"

#include <bit>

namespace lockscope {

quint64 ScannedTenure::unexplainedDrops(quint64 dropped, qint64 atMs,
                                        const QList<RecordEvent>& masterEvents) const
{
    quint64 out = 0;
    for (int m = 0; m < 64 && dropped; ++m) {
        const quint64 bit = quint64(1) << m;
        if (!(dropped & bit))
            continue;
        dropped &= ~bit;
        bool explained = false;
        const qint64 since = joinedAt(m, quorumAtMs - 1000);
        for (const RecordEvent& me : masterEvents)
            explained |= me.master == m && me.timeMs >= since && me.timeMs <= atMs;
        if (!explained)
            out |= bit;
    }
    return out;
}

namespace {

bool heldThere(quint64 everHolders, int master)
{
    return master >= 0 && master < 64 && (everHolders & (quint64(1) << master));
}

} // namespace

const RecordEvent* ScannedTenure::topologyChange(qint64 untilMs, const QList<RecordEvent>& masterEvents) const
{
    for (const RecordEvent& m : masterEvents)
        if (m.kind != RecordEvent::Kind::MasterDown && m.timeMs >= quorumAtMs && m.timeMs <= untilMs &&
            heldThere(everHolders, m.master))
            return &m;
    return nullptr;
}

qint64 ScannedTenure::quietBeforeLossMs(const QList<RecordEvent>& masterEvents) const
{
    const qint64 active = qMax(quorumAtMs, ttlSeenAtMs);
    for (const RecordEvent& m : masterEvents)
        if ((m.kind == RecordEvent::Kind::MasterDown || m.kind == RecordEvent::Kind::MasterRestarted ||
             m.kind == RecordEvent::Kind::Failover) &&
            m.timeMs >= active && heldThere(everHolders, m.master))
            return m.timeMs - active;
    return -1;
}

QString ScannedTenure::releaseMaybeUnseen(qint64 quietMs, const QString& cause)
{
    return QStringLiteral("its holder was at work on it %1 ms before its master went away, less than the "
                          "recorder may take to see a release: released then (the delete kept, its keyspace "
                          "event lost with the process), or lost (%2)")
        .arg(quietMs)
        .arg(cause);
}

bool ScannedTenure::noteAnchor(const RecordEvent& e)
{
    if (e.kind == RecordEvent::Kind::ValidThrough) {
        if (e.ttlMs <= 0 || e.timeMs + e.ttlMs <= validThroughMs)
            return false;
        validThroughMs = e.timeMs + e.ttlMs;
        return true;
    }
    if (e.timeMs <= deletedAfterMs)
        return false;
    deletedAfterMs = e.timeMs;
    deletedAfterMaster = e.master;
    return true;
}

QString ScannedTenure::letGoSoonAfter(qint64 afterMs, qint64 fromMs, bool ranOut, const QString& cause) const
{
    if (ranOut && validThroughMs > fromMs)
        return QStringLiteral(
                   "its validity ran out unreleased %1 ms after the other token was seen on a quorum, "
                   "and its TTLs, counted from when they were asked for, lasted until %2 at least: "
                   "it was still valid when the other held a quorum (%3)")
            .arg(afterMs)
            .arg(HistoryJson::time(validThroughMs), cause);
    if (ranOut)
        return QStringLiteral(
                   "its validity ran out unreleased %1 ms after the other token was seen on a quorum, "
                   "within the %2 ms allowed for its holder's clock drift and the reads' delays, so "
                   "perhaps before the other took it (%3)")
            .arg(afterMs)
            .arg(expirySlackMs())
            .arg(cause);
    if (deletedAfterMs > fromMs)
        return QStringLiteral("its holder let it go %1 ms after the other token was seen on a quorum, and "
                              "master %2 still held its copy then: the server ran its delete after %3, "
                              "when the other already held a quorum (%4)")
            .arg(afterMs)
            .arg(deletedAfterMaster + 1)
            .arg(HistoryJson::time(deletedAfterMs), cause);
    return QStringLiteral("its holder let it go %1 ms after the other token was seen on a quorum, less than "
                          "the recorder may take to see a release, so perhaps before the other took it (%2)")
        .arg(afterMs)
        .arg(cause);
}

QString ScannedTenure::causeOfReplacement() const
{
    return QStringLiteral("another token was in its key at the next read, %1 ms before its validity ended, "
                          "with no delete or expiry seen: a write over a held lock, or a release and "
                          "re-take too quick to see without keyspace events")
        .arg(validUntilMs >= 0 ? validUntilMs - replacedAtMs : 0);
}

QString ScannedTenure::causeOfLoss(qint64 untilMs, const QList<RecordEvent>& masterEvents, int masters) const
{
    if (deletedByOtherAtMs >= 0)
        return QStringLiteral("its lock was deleted at %1 by a connection that was not its holder's, %2 ms "
                              "before its validity ended (the tracer saw it)")
            .arg(HistoryJson::time(deletedByOtherAtMs))
            .arg(validUntilMs - deletedByOtherAtMs);
    if (const RecordEvent* m = topologyChange(untilMs, masterEvents))
        return QStringLiteral("%1 (%2), a master that held the first token")
            .arg(EvidenceLine::of(*m, masters), m->kind == RecordEvent::Kind::Failover
                                                    ? QStringLiteral("a failover")
                                                    : QStringLiteral("a restart"));
    if (earlyMaster >= 0)
        return QStringLiteral("its copy went from %1 at %2, %3 ms before its validity ended, with no "
                              "restart or failover of that master recorded: a clock running fast, an "
                              "eviction or a delete by someone else")
            .arg(EvidenceLine::masterLabel(earlyMaster), HistoryJson::time(earlyAtMs))
            .arg(validUntilMs - earlyAtMs);
    for (const RecordEvent& m : masterEvents)
        if (m.timeMs >= quorumAtMs && m.timeMs <= untilMs && heldThere(everHolders, m.master))
            return QStringLiteral("%1, a master that held the first token").arg(EvidenceLine::of(m, masters));
    return QStringLiteral("no restart or failover of its masters was recorded");
}

void ScannedTenure::noteEarly(quint64 unexplained, qint64 atMs)
{
    if (!unexplained || earlyMaster >= 0 || !expiredEarly(atMs))
        return;
    earlyMaster = std::countr_zero(unexplained);
    earlyAtMs = atMs;
}

} // namespace lockscope
