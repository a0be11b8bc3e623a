// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

namespace lockscope {

// The masters holding `token` in `view` (bit i: master i, as RecordEvent::holders) and how many,
// read from each master's own value: the view's holders are those of its own token only.
quint64 holdersMask(const LockView& view, const QByteArray& token, int* holding);

} // namespace lockscope
