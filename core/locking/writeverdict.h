// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// How a write on the masters ended: Redlock's acquire, extend and release (RedlockOutcome) and an
// administrator's force-release (ForceReleaseOutcome). What a caller branches on: lockctl maps it to
// its exit codes, the window to its messages; the outcome's `error` says why for people.
enum class WriteVerdict
{
    Done,        // acquired / extended / released on a quorum; force-release: deleted (or a holder
                 // removed) on at least one master
    NotDone,     // enough masters answered, but the lock is someone else's (or the token is gone);
                 // force-release: spared or absent everywhere, nothing deleted
    Unavailable, // too few masters answered to decide; force-release: no chosen master answered
    Refused,     // read-only mode (force-release: or not a lock): nothing was sent
    Invalid,     // bad arguments (force-release: or the audit log cannot be written): nothing was sent
};

// "done", "not-done", "unavailable", "refused", "invalid": the audit log's and lockctl's name.
QString writeVerdictName(WriteVerdict verdict);
// Whether the write reached the masters at all (anything but Refused and Invalid): such a write
// that is not in the audit log must be said loudly.
bool writeWasSent(WriteVerdict verdict);

} // namespace lockscope
