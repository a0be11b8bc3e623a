// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/masterobservation.h"

namespace lockscope::test {

// One master's read of `token` as a plain-token lock of `type`, present with `pttlMs` (-1: no TTL),
// read at `readAtMs` (monotonic), with exactly these holders.
MasterObservation heldObservation(const QByteArray& token, qint64 pttlMs, qint64 readAtMs,
                                  const QList<LockHolder>& holders, const QByteArray& type = "string",
                                  bool truncated = false);

} // namespace lockscope::test
