// SPDX-License-Identifier: Apache-2.0
#include "monitor/lockstatus.h"

namespace lockscope {

QString lockStatusName(LockStatus status)
{
    switch (status) {
    case LockStatus::Held:
        return QStringLiteral("held");
    case LockStatus::Partial:
        return QStringLiteral("partial");
    case LockStatus::Contested:
        return QStringLiteral("contested");
    case LockStatus::Stuck:
        return QStringLiteral("stuck");
    case LockStatus::Unknown:
        return QStringLiteral("unknown");
    }
    return QStringLiteral("unknown");
}

} // namespace lockscope
