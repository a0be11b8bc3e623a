// SPDX-License-Identifier: Apache-2.0
#include "locking/forcereleaseoutcome.h"

namespace lockscope {

QString forceReleaseActionName(ForceReleaseMasterResult::Action action)
{
    using Action = ForceReleaseMasterResult::Action;
    switch (action) {
    case Action::Deleted:
        return QStringLiteral("deleted");
    case Action::HolderRemoved:
        return QStringLiteral("holder-removed");
    case Action::Spared:
        return QStringLiteral("spared");
    case Action::Absent:
        return QStringLiteral("absent");
    case Action::WrongType:
        return QStringLiteral("wrong-type");
    case Action::Failed:
        return QStringLiteral("failed");
    case Action::NotChosen:
        return QStringLiteral("not-chosen");
    case Action::NotSent:
        return QStringLiteral("not-sent");
    }
    return QStringLiteral("failed");
}

} // namespace lockscope
