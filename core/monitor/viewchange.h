// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

namespace lockscope {

// What is news about a lock, and what is only its countdown or a reading's jitter: the monitor
// re-reads and recomputes locks all the time, and only news goes to the window, the recorder and
// the metrics.
namespace ViewChange {

// A master's expiry moved (an extension, a new TTL), as told by two readings of its TTL taken at
// two times; within 50 ms of the countdown it did not.
bool expiryMoved(qint64 beforePttlMs, qint64 beforeReadAtMs, qint64 nowPttlMs, qint64 nowReadAtMs);
// The view computed later is news against the one shown: another status, holder, owner or
// content, an expiry that moved on one master (shown in the detail pane even when the quorum's
// validity does not move), or a validity beyond the countdown. `driftFactor`: the Redlock
// setting the validities were computed with.
bool significant(const LockView& shown, const LockView& computed, double driftFactor);

} // namespace ViewChange

} // namespace lockscope
