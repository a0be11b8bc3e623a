// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

namespace lockscope {

// The masters holding `token` in `view` (bit i: master i, as RecordEvent::holders) and how many,
// read from each master's own value: the view's holders are those of its own token only.
quint64 holdersMask(const LockView& view, const QByteArray& token, int* holding);

// Whether every master in `holders` (the masters last seen holding `token`) holds another token in
// `view`: its copies were written over (a steal, a contested lock's other side taking them), not
// let go. False for an empty mask.
bool writtenOver(const LockView& view, const QByteArray& token, quint64 holders);

// The monotonic moment before which the view's token is surely still valid on its quorum; -1 when
// the view cannot say (not on a quorum, no expiry, a read's send time unknown). The view counts
// each master's TTL down from when its reply came (the display's countdown); the server read that
// TTL after the request went out and before the reply, so counted from the send it is a lower
// bound whatever the replies' delay. Less 1 ms for the servers' and this clock's millisecond steps.
qint64 validityFloorMs(const LockView& view);

} // namespace lockscope
