// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosisfacts.h"
#include "diagnosis/lockstory.h"
#include "monitor/lockview.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace lockscope {

// Why a lock is (or may be) stuck, as a stable code for scripts and rules.
enum class DiagnosisCode
{
    NoExpiry,          // "no-expiry": held with no TTL
    TimestampPast,     // "timestamp-past": a legacy lock whose timestamp has passed (no TTL either)
    QuorumLost,        // "quorum-lost": no token on enough masters (or too many masters unreachable)
    Contested,         // "contested": different tokens on different masters
    AtRisk,            // "at-risk": a master holding it restarted or failed over
    HeldTooLong,       // "held-too-long": age > N × its lease: a renewal loop that never lets go
    NotRenewed,        // "not-renewed": it was renewed, the renewals stopped, the TTL runs down
    OwnerConnected,    // "owner-connected": the owner's connection is open (with its idle time)
    OwnerDisconnected, // "owner-disconnected": the owner's connection, seen before, is gone
    Waiters,           // "waiters": clients wait for it (Redisson channel, fair-lock queue)
};

// "no-expiry", "held-too-long", ...: the names in JSON and in docs/manual/stuck-locks.md.
QString diagnosisCodeName(DiagnosisCode code);

struct Diagnosis
{
    DiagnosisCode code = DiagnosisCode::NoExpiry;
    QString sentence; // one plain sentence with the evidence

    bool operator==(const Diagnosis&) const = default;
};

struct DiagnosisSettings
{
    // "Held far longer than its lease": held for more than this many times the longest TTL seen.
    double heldTooLongFactor = 10;
    // "No longer renewed" needs at least this much quiet since the last extension (and twice the
    // usual gap between extensions): a poll or two late is not a holder gone.
    qint64 notRenewedAfterMs = 2000;
};

// The moment and the words of a diagnosis: times now on both clocks, masters' labels.
struct DiagnosisContext
{
    QStringList masterNames; // "M1".. in the window, URLs in lockctl
    DiagnosisSettings settings;
    qint64 nowMs = 0;          // wall clock, ms since the epoch (the story's clock)
    qint64 monotonicNowMs = 0; // the view's clock (validity, reads)
};

// The diagnoses that hold for a lock: a pure function of the live view, its story and the facts
// read for it, most serious first. Empty when nothing is wrong.
namespace LockDiagnosis {

QList<Diagnosis> diagnose(const LockView& view, const LockStory& story, const DiagnosisFacts& facts,
                          const DiagnosisContext& context);
// From a story alone, for a recording read without a live view (`lockctl history`):
// no-expiry when no TTL was ever read for its holder, else held-too-long and not-renewed with
// `ttlNowMs` the TTL left at context.nowMs.
QList<Diagnosis> diagnoseStory(const LockStory& story, const QString& owner, qint64 ttlNowMs,
                               const DiagnosisContext& context);
// The sentences alone, for places that show them as text.
QStringList sentences(const QList<Diagnosis>& diagnoses);

} // namespace LockDiagnosis

} // namespace lockscope
