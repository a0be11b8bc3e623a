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

QString forceReleaseVerdictName(ForceReleaseOutcome::Verdict verdict)
{
    using Verdict = ForceReleaseOutcome::Verdict;
    switch (verdict) {
    case Verdict::Done:
        return QStringLiteral("done");
    case Verdict::NothingDeleted:
        return QStringLiteral("not-done");
    case Verdict::Unavailable:
        return QStringLiteral("unavailable");
    case Verdict::Refused:
        return QStringLiteral("refused");
    case Verdict::Invalid:
        return QStringLiteral("invalid");
    }
    return QStringLiteral("invalid");
}

} // namespace lockscope
