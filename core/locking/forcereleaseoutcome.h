// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "locking/writeverdict.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QList>
#include <QString>

namespace lockscope {

// What one master did in a force-release.
struct ForceReleaseMasterResult
{
    enum class Action
    {
        Deleted,       // the lock key is gone
        HolderRemoved, // one holder left a semaphore; the semaphore stays
        Spared,        // the token had changed: left alone
        Absent,        // nothing there
        WrongType,     // a key of a type no lock uses, and --force-unknown was not given
        Failed,        // unreachable or an error
        NotChosen,     // not among the masters the admin picked
        NotSent,       // refused before anything was sent
    };

    int index = 0;
    QString master;
    Action action = Action::NotSent;
    QByteArray tokenBefore; // what the master held just before (fields or members joined by ',')
    QString detail;         // "published 0 on redisson_lock__channel:{x}", "signalled lock-signal:x", ...
    QList<QByteArrayList> commands; // the commands the master's script sent, in order (as planned)
    RedisError error;
};

struct ForceReleaseOutcome
{
    WriteVerdict verdict = WriteVerdict::Invalid;
    RedisError error;
    QList<ForceReleaseMasterResult> results; // every master, in master order
    RedisError auditError;                   // the audit line could not be written
    // When the deletes went out (wall clock, ms; 0 when nothing was sent): the audit line's time,
    // so a recorder's observation of the delete never comes before the action that caused it.
    qint64 sentAtMs = 0;

    bool ok() const { return verdict == WriteVerdict::Done; }
    // Masters left alone because the holder the admin saw was gone from them.
    int spared() const;
    // The audit log's and lockctl's word: "partial" when the lock was released on some masters and
    // spared on others (a done verdict, exit status 0), otherwise the verdict's name.
    QString outcomeName() const;
    // For people: "partial (2 spared)", or the verdict's name.
    QString outcomeText() const;
    // Sent to the masters, but not in the audit log: to be said loudly.
    bool auditLost() const { return auditError.isError() && writeWasSent(verdict); }
};

QString forceReleaseActionName(ForceReleaseMasterResult::Action action);

} // namespace lockscope
