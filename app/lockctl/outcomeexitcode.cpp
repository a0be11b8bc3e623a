#include "lockctl/outcomeexitcode.h"

#include "lockctl/exitcode.h"

namespace lockctl {

int OutcomeExitCode::of(lockscope::WriteVerdict verdict)
{
    using Verdict = lockscope::WriteVerdict;
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

} // namespace lockctl
