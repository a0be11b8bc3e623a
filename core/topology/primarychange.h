// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/nodeaddress.h"

#include <QMetaType>

namespace lockscope {

// A failover, as the monitor needs it: every lock read from `oldPrimary` may be gone from
// `newPrimary` (the replica was promoted before it received the write), so those locks are at risk.
struct PrimaryChange
{
    NodeAddress oldPrimary;
    NodeAddress newPrimary;

    bool operator==(const PrimaryChange&) const = default;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::PrimaryChange)
