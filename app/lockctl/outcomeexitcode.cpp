#include "outcomeexitcode.h"

#include "exitcode.h"

namespace lockctl {

int OutcomeExitCode::of(lockscope::RedlockOutcome::Verdict verdict)
{
    using Verdict = lockscope::RedlockOutcome::Verdict;
    switch (verdict) {
    case Verdict::Done:
        return Done;
    case Verdict::NotDone:
        return NotDone;
    case Verdict::Unavailable:
        return Unavailable;
    case Verdict::Refused:
        return Refused;
    case Verdict::Invalid:
        return UsageError;
    }
    return UsageError;
}

int OutcomeExitCode::of(lockscope::ForceReleaseOutcome::Verdict verdict)
{
    using Verdict = lockscope::ForceReleaseOutcome::Verdict;
    switch (verdict) {
    case Verdict::Done:
        return Done;
    case Verdict::NothingDeleted:
        return NotDone;
    case Verdict::Unavailable:
        return Unavailable;
    case Verdict::Refused:
        return Refused;
    case Verdict::Invalid:
        return UsageError;
    }
    return UsageError;
}

} // namespace lockctl
