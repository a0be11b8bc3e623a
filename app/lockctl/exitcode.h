// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locking/writeverdict.h"

namespace lockctl {

// The contract scripts rely on; lockctl(1), "EXIT STATUS" (docs/man/lockctl.1), lists the same.
enum ExitCode
{
    Done = 0,
    NotDone = 1,     // not acquired, token did not match, nothing deleted
    UsageError = 2,  // bad arguments or configuration
    Unavailable = 3, // not enough masters reachable
    Refused = 4,     // read-only mode, or not a lock
    AuditLost = 5,   // the write went through, but its audit line could not be written
};

// The core's verdict of a write (Redlock's and force-release's alike) as an exit code.
constexpr ExitCode exitCodeOf(lockscope::WriteVerdict verdict)
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
