// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditlog.h"
#include "lockctl/clicontext.h"
#include "locking/redlock.h"

#include <memory>

namespace lockctl {

// What the writing commands share: the audit log (checked before anything is sent), the masters,
// a Redlock on them, and a way to wait for an asynchronous outcome.
class WriteSession
{
public:
    explicit WriteSession(CliContext& context);

    // Checks that the audit log can be appended to; prints and returns UsageError when not.
    int prepare();
    // --retries N and --retry-delay MS, where a command takes them; false with `problem` set.
    bool applyRetryOptions(const QCommandLineParser& parser, QString* problem);
    // Opens the masters on first use. Options such as the retry count go in before that.
    lockscope::Redlock& redlock();
    const lockscope::AuditLog& audit() const { return m_audit; }
    lockscope::LockScopeConfig& config() { return m_config; }

    // Runs the event loop until the operation started by `start` reports.
    lockscope::RedlockOutcome wait(const std::function<void(lockscope::Redlock::Done)>& start);
    // The Redlock writes, each waited for.
    lockscope::RedlockOutcome acquire(const QByteArray& resource, qint64 ttlMs, const QString& owner);
    lockscope::RedlockOutcome extend(const lockscope::RedlockLease& lease, qint64 ttlMs);
    lockscope::RedlockOutcome release(const lockscope::RedlockLease& lease);

    // "3 of 5 masters" style summaries and per-master lines for failures.
    void printFailures(const lockscope::RedlockOutcome& outcome);
    // After a success on a quorum: which masters took no part, and why (standard error, so a script
    // reading the token from standard output is not disturbed).
    void warnAboutFailedMasters(const lockscope::RedlockOutcome& outcome);

private:
    CliContext& m_context;
    lockscope::LockScopeConfig m_config;
    lockscope::AuditLog m_audit;
    std::unique_ptr<lockscope::Redlock> m_redlock;
};

} // namespace lockctl
