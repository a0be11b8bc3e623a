// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

namespace lockscope::test {

// Recorded events made by hand, for the tests of what reads a recording (the detector of two
// holders at once, its live watch, the window's Incidents): one lock event with the masters
// holding its token (bit i: master i) and the validity it was seen with.
RecordEvent lockEvent(qint64 ms, RecordEvent::Kind kind, const QByteArray& resource, const QByteArray& token,
                      quint64 holders = 0, qint64 ttlMs = -1);
// One master's event (a restart, a failover, an outage).
RecordEvent masterEvent(qint64 ms, RecordEvent::Kind kind, int master, const QString& detail = QString());

} // namespace lockscope::test
