// SPDX-License-Identifier: Apache-2.0
#include "locking/forcereleaseoutcome.h"

#include <algorithm>

namespace lockscope {

int ForceReleaseOutcome::spared() const
{
    return int(std::count_if(results.cbegin(), results.cend(), [](const ForceReleaseMasterResult& r) {
        return r.action == ForceReleaseMasterResult::Action::Spared;
    }));
}

QString ForceReleaseOutcome::outcomeName() const
{
    return verdict == WriteVerdict::Done && spared() > 0 ? QStringLiteral("partial")
                                                         : writeVerdictName(verdict);
}

QString ForceReleaseOutcome::outcomeText() const
{
    const int n = spared();
    return verdict == WriteVerdict::Done && n > 0 ? QStringLiteral("partial (%1 spared)").arg(n)
                                                  : writeVerdictName(verdict);
}

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
