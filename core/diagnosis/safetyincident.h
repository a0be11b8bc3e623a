// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace lockscope {

// A time a lock failed to protect: two holders at once, found from what was observed in Redis
// alone (DoubleGrantDetector), with the evidence and how sure the observation makes it.
struct SafetyIncident
{
    enum class Kind
    {
        MajorityOverlap, // two tokens each on a quorum of masters at once (Redlock)
        FailoverLoss,    // gone from a promoted primary before its validity, and taken by another
        // Expired, not released, and taken by another token soon after: the old holder may still
        // have believed it held the lock (a pause longer than its lease). Possible without evidence
        // that it was alive; probable with it.
        HandoverUnderLiveHolder,
        // Another token in the key at the next read while the holder's validity ran, with no
        // delete, expiry, restart or failover seen: a SET without NX over a held lock, or a release
        // and re-take too quick to see without keyspace events. Possible.
        OverwrittenWhileHeld,
        // A plain delete of a held lock from a connection that is not its holder's (seen by the lock
        // tracer), while the holder's validity ran: the flash sale's second half. The holder goes on
        // believing it holds a lock anyone can now take. Proven. The second token is the deleter's
        // own, where the trace saw its connection take one.
        DeletedByNonHolder,
        // A fencing counter read lower on a master than it had read there before (a restart
        // without persistence, a failover to a replica the last INCRs had not reached): the values
        // in between can be given out again, so a resource that checks fencing tokens takes a stale
        // holder's writes. Proven. The tokens are the two values (the highest before, the lower).
        FencingRegression,
    };
    enum class Confidence
    {
        Possible, // a handover with no evidence either way
        Probable, // the old holder was shown alive at the handover
        Proven,   // the observation alone shows the two holders' validity overlapping
    };

    Kind kind = Kind::MajorityOverlap;
    Confidence confidence = Confidence::Proven;
    QByteArray resource;
    QByteArray firstToken; // held first
    QByteArray secondToken;
    QString firstOwner;
    QString secondOwner;
    // Wall clock: the two held at once from here (the second token seen on a quorum)...
    qint64 fromMs = 0;
    // ...to here: the first of the two to give the lock up or to reach the end of its validity
    // (for a handover, the second holder's end: how long the first went on believing is unseen).
    qint64 toMs = 0;
    QString cause;        // "M3 restarted (run_id a1… → 9c…) while it held the first token"
    QStringList evidence; // the events it rests on, one line each: time, event, master, token
};

// "majority-overlap", "failover-loss", "handover-under-live-holder", "overwritten-while-held",
// "deleted-by-non-holder", "fencing-regression"; "possible",
// "probable", "proven": the names in JSON.
QString safetyIncidentKindName(SafetyIncident::Kind kind);
// One incident as `lockctl incidents --json` and `lockctl list --json` write it: kind, confidence,
// resource, first and second ({"token", "owner"}), from and to (UTC, ISO 8601 with ms), cause,
// evidence. Server bytes escaped as everywhere.
QJsonObject safetyIncidentJson(const SafetyIncident& incident);
// Who held the lock at once, for people: "9f3c… and 41aa…"; with no second token (a delete by a
// connection that never took the lock) "9f3c… and the connection 127.0.0.1:5001".
QString safetyIncidentHolders(const SafetyIncident& incident);
// Which incident it is, whatever evidence came since (a possible handover the tracer later proved
// is the same incident): its kind, resource, tokens and start.
QString safetyIncidentIdentity(const SafetyIncident& incident);
// Every kind, in the enum's order (the metrics' series, the manual's table).
QList<SafetyIncident::Kind> allSafetyIncidentKinds();
QString safetyConfidenceName(SafetyIncident::Confidence confidence);

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::SafetyIncident)
