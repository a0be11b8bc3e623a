#pragma once

#include "locking/writeverdict.h"

namespace lockctl {

// The core's verdicts of a write (Redlock's and force-release's alike) as lockctl's exit codes
// (exitcode.h).
class OutcomeExitCode
{
public:
    static int of(lockscope::WriteVerdict verdict);
};

} // namespace lockctl
