// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"
#include "record/recordevent.h"

#include <QByteArray>

namespace lockscope {

// A handover by expiry (a lease run out unreleased, another token taking the lock soon after) and
// what is known of the old holder then. The record alone cannot tell a holder paused past its lease
// from one killed while it held the lock: possible. The lock tracer asks the master, as the lock
// changes hands, whether the connection that took the old token is still open (TracedAlive) or gone
// (TracedGone). Open, and the holder had renewed its lease (it meant to keep the lock: a watchdog, an
// extend) and stopped without releasing it: alive and still counting on the lock, probable. Open
// without renewals is what a holder that lets its leases run out on purpose looks like (it knows when
// it is over): still possible.
struct LapsedHandover
{
    QByteArray token; // whose lease ran out
    qint64 expiredAtMs = 0;
    qint64 ttlMs = -1;
    bool renewed = false;
    QByteArray next; // who took the lock, and when
    qint64 takenAtMs = 0;

    // A take this soon after the expiry (within the old lease's length) is a handover from it.
    bool takenSoonAfter(qint64 atMs) const { return atMs - expiredAtMs <= qMax<qint64>(ttlMs, 1000); }

    SafetyIncident::Confidence confidence(const RecordEvent* told) const;
    QString cause(const RecordEvent* told) const;
};

} // namespace lockscope
