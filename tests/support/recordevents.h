// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"
#include "record/resourcehistory.h"

#include <bit>

namespace lockscope::test {

// Recorded events made by hand, for the tests of what reads a recording (the detector of two
// holders at once, its live watch, the window's Incidents) and the benchmark that writes one:
// lockEvent() is one lock event with the masters holding its token (bit i: master i) and the
// validity it was seen with; masterEvent() one master's (a restart, a failover, an outage); inSession()
// either as read back. Header-only: lockbench, which links no test support, uses it too.
inline RecordEvent lockEvent(qint64 ms, RecordEvent::Kind kind, const QByteArray& resource,
                             const QByteArray& token, quint64 holders = 0, qint64 ttlMs = -1)
{
    return RecordEvent{.timeMs = ms,
                       .kind = kind,
                       .resource = resource,
                       .master = -1,
                       .token = token,
                       .owner = {},
                       .ttlMs = ttlMs,
                       .holding = std::popcount(holders),
                       .holders = holders,
                       .detail = {},
                       .auditId = {}};
}

inline RecordEvent masterEvent(qint64 ms, RecordEvent::Kind kind, int master,
                               const QString& detail = QString())
{
    return RecordEvent{.timeMs = ms,
                       .kind = kind,
                       .resource = {},
                       .master = master,
                       .token = {},
                       .owner = {},
                       .ttlMs = -1,
                       .holding = 0,
                       .holders = 0,
                       .detail = detail,
                       .auditId = {}};
}

// `event` as a recording gives it back: one of `session`'s.
inline HistoryEvent inSession(qint64 session, const RecordEvent& event)
{
    HistoryEvent h;
    h.session = session;
    h.event = event;
    return h;
}

} // namespace lockscope::test
