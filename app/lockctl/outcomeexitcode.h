#pragma once

#include "locking/forcereleaseoutcome.h"
#include "locking/redlockoutcome.h"

namespace lockctl {

// The core's verdicts as lockctl's exit codes (exitcode.h).
class OutcomeExitCode
{
public:
    static int of(lockscope::RedlockOutcome::Verdict verdict);
    static int of(lockscope::ForceReleaseOutcome::Verdict verdict);
};

} // namespace lockctl
