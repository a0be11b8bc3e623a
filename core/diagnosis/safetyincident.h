// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
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
    qint64 fromMs = 0; // wall clock: the two held at once from here...
    qint64 toMs = 0;   // ...to here
    QString cause;     // "M3 restarted (run_id a1… → 9c…) while it held the first token"
    QStringList evidence; // the events it rests on, one line each: time, event, master, token
};

// "majority-overlap", "failover-loss"; "possible", "probable", "proven": the names in JSON.
QString safetyIncidentKindName(SafetyIncident::Kind kind);
QString safetyConfidenceName(SafetyIncident::Confidence confidence);

} // namespace lockscope
