// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"
#include "trace/tracedcommand.h"

#include <optional>

namespace lockscope {

// What of a traced command goes into the recording (issue #43): who took the lock on which
// connection, and the commands that show a holder still at work past its lease or a lock taken from
// under its holder; the double-grant detector reads them as evidence. Everything else (refused
// attempts, reads, the holder's own extends and releases) the recorder sees on the masters already.
namespace TraceRecordEvent {

// The event for `command` on `resource`, or none. Its time is when the command reached this machine
// (TracedCommand::seenMs), the clock the recorder's own events use.
std::optional<RecordEvent> of(const QByteArray& resource, const TracedCommand& command);

} // namespace TraceRecordEvent

} // namespace lockscope
