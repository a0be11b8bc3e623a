// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "locking/mastervote.h"
#include "locking/redlocklease.h"
#include "locking/writeverdict.h"

#include <QList>
#include <QStringList>

namespace lockscope {

// The typed result of acquire, extend and release. `verdict` is what a caller branches on
// (lockctl maps it to its exit codes); `error` says why for people.
struct RedlockOutcome
{
    WriteVerdict verdict = WriteVerdict::Invalid;
    RedisError error;
    RedlockLease lease; // the new lease after acquire and extend
    int succeeded = 0;  // masters that said yes in the deciding round
    int answered = 0;   // masters that answered at all in that round
    int total = 0;
    int needed = 0;
    qint64 elapsedUs = 0; // duration of the deciding round
    int attempts = 0;
    QList<MasterVote> votes; // per master, in master order, from the deciding round
    QStringList masters;     // the masters' URLs without passwords, same order
    RedisError auditError;   // the audit line could not be written

    bool ok() const { return verdict == WriteVerdict::Done; }
    // The write reached the masters but is not in the audit log: to be said loudly (a dialog in
    // the window, its own exit code in lockctl).
    bool auditLost() const { return auditError.isError() && writeWasSent(verdict); }
};

// What one master did in a Redlock `action` ("acquire", "extend", "release"), as the audit log and
// `lockctl release` name it: "locked", "extended", "released", "held-by-other", "absent",
// "other-token", the error kind of a failure, or "not-sent".
QString redlockVoteResult(const QString& action, const MasterVote& vote);

} // namespace lockscope
