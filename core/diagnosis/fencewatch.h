// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"
#include "record/recordevent.h"

#include <QList>

namespace lockscope {

// One resource's fencing counter in one recording session, read on each master (FenceCounter
// events): a value at or below the highest read before on that master, with the counter gone down
// between, is a fencing regression (a restart without persistence, a failover to a replica the last
// INCRs had not reached). The values up to that highest can be given out again, and a resource that
// checks fencing tokens takes a stale holder's writes: proven by the readings alone. The incident
// runs until the counter passes its old highest; each reading before then repeats a value.
// The highest value read again after a restart or failover is a regression only when the lock was
// granted after the restart or failover (Redisson's fenced lock: the counter's resource is the lock):
// the monitor reads every counter again after either, and a counter kept over a restart (AOF) reads
// what it read before. A grant from before it does not count: the lock is read after its counter, so
// a grant's event can follow the reading that already holds its INCR.
class FenceWatch
{
public:
    // `masterEvents` (the session's restarts, failovers and outages, oldest first) and `out` must
    // outlive it.
    FenceWatch(const QByteArray& resource, int masters, const QList<RecordEvent>& masterEvents,
               QList<SafetyIncident>& out);

    // Takes a counter's reading (true) and notes a grant of the lock (`acquired`, `contested`:
    // false, as for anything else, which the caller goes on with).
    bool add(const RecordEvent& event);
    // Nothing read: the scan it belongs to may be forgotten (a counter's highest must not be).
    bool idle() const { return m_perMaster.isEmpty(); }

private:
    struct Counter
    {
        qint64 highest = -1;
        qint64 highestAtMs = 0;
        qsizetype open = -1; // its incident in `out` while it gives out values again
    };

    void read(const RecordEvent& event);
    // The restart or failover of `master` between the two times; null when none.
    const RecordEvent* topologyBetween(int master, qint64 fromMs, qint64 toMs) const;

    QByteArray m_resource;
    int m_masters;
    const QList<RecordEvent>& m_masterEvents;
    QList<SafetyIncident>& m_out;
    QList<Counter> m_perMaster; // by master index, grown as met
    qint64 m_lastGrantMs = -1;
};

} // namespace lockscope
