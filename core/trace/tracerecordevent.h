// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"
#include "trace/tracedcommand.h"

#include <QList>

namespace lockscope {

// What of a traced command goes into the recording (issue #43): who took the lock on which
// connection, and the commands that show a holder still at work past its lease or a lock taken from
// under its holder (the double-grant detector reads them as evidence), and the attempts the lock
// turned away (contention, for the insights of issue #44). Everything else (reads, the holder's own
// extends and releases) the recorder sees on the masters already.
namespace TraceRecordEvent {

// The events for `command` on `resource` (none, one, or a take and what the master said of the
// holder whose lease had run out before it). Their time is when the command reached this machine
// (TracedCommand::seenMs), the clock the recorder's own events use.
QList<RecordEvent> of(const QByteArray& resource, const TracedCommand& command);

} // namespace TraceRecordEvent

} // namespace lockscope
