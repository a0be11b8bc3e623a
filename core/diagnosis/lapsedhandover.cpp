// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/lapsedhandover.h"

#include "base/bytesdisplay.h"
#include "record/historyjson.h"

namespace lockscope {

SafetyIncident::Confidence LapsedHandover::confidence(const RecordEvent* told) const
{
    return renewed && told && told->kind == RecordEvent::Kind::TracedAlive
               ? SafetyIncident::Confidence::Probable
               : SafetyIncident::Confidence::Possible;
}

QString LapsedHandover::cause(const RecordEvent* told) const
{
    QString out = QStringLiteral("%1 expired at %2 without being released and %3 took the lock %4 ms later")
                      .arg(escapeBytes(token), HistoryJson::time(expiredAtMs), escapeBytes(next))
                      .arg(takenAtMs - expiredAtMs);
    if (!told)
        return out + QStringLiteral("; whether its holder was still at work is not in the recording");
    if (told->kind == RecordEvent::Kind::TracedGone)
        return out + QStringLiteral("; %1: its holder had gone (exited or killed), a lease left to run out")
                         .arg(told->detail);
    if (renewed)
        return out +
               QStringLiteral("; its holder had renewed its lease and stopped without releasing it, and "
                              "was alive: %1 (paused, blocked or cut off past its lease)")
                   .arg(told->detail);
    return out + QStringLiteral("; %1, but it never renewed its lease: a holder that lets its lease run out "
                                "on purpose looks the same")
                     .arg(told->detail);
}

} // namespace lockscope
