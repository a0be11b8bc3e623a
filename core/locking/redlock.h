// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/writegate.h"
#include "config/lockscopeconfig.h"
#include "locking/quorumcall.h"
#include "locking/redlockoutcome.h"

#include <QObject>

#include <functional>
#include <memory>

namespace lockscope {

class AuditLog;
class MasterSet;

// The Redlock algorithm over N independent masters (the distlock text; shared/reference has the
// summary): SET NX PX on all masters at once with a short per-master timeout, a quorum of N/2+1,
// validity = ttl - elapsed - drift on the monotonic clock, release everywhere on failure, retry
// after a random delay. Extend and release are token-checked Lua on every master.
//
// Every write goes through a WriteGate: refused in read-only mode (ReadOnlyMode) and, when an
// audit log is given, refused when it cannot be appended to (Io), both without touching a master;
// every attempt, refused or not, becomes one audit line (lockctl and the window always give a log;
// a library user, a benchmark or the demo's simulated clients may not). A line that cannot be
// written after the masters were touched sets RedlockOutcome::auditError and emits auditLost().
class Redlock final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Redlock)

public:
    using Done = std::function<void(const RedlockOutcome& outcome)>;

    static constexpr qint64 maxTtlMs = 2147483647; // PX takes more, but 2^31-1 ms (24 days) is the contract

    // `masters` and `audit` must outlive this object.
    Redlock(MasterSet* masters, const LockScopeConfig& config, const AuditLog* audit = nullptr,
            QObject* parent = nullptr);

    RedlockSettings& settings() { return m_config.redlock; }
    const LockScopeConfig& config() const { return m_config; }
    MasterSet* masters() const { return m_masters; }
    const WriteGate& gate() const { return m_gate; }
    // By default a round is decided the moment its outcome is certain (a quorum of yes, or too
    // many no): the fastest answer. A tool that reports per master (lockctl) waits for every
    // master instead, still bounded by the per-master timeout.
    void setWaitForAllMasters(bool wait) { m_waitForAll = wait; }

    // `done` always runs later from the event loop, never inside these calls.
    void acquire(const QByteArray& resource, qint64 ttlMs, const QString& owner, Done done);
    void acquireWithToken(const QByteArray& resource, const QByteArray& token, qint64 ttlMs, Done done);
    // Needs a quorum within what is left of the lease's validity (when known).
    void extend(const RedlockLease& lease, qint64 ttlMs, Done done);
    // Token-checked delete on every master; reports each master's answer, waiting for each as long
    // as its connection waits for a command (not the per-master timeout of an acquisition).
    void release(const RedlockLease& lease, Done done);

    // Why a TTL is unusable, or an empty string.
    static QString ttlProblem(qint64 ttlMs);

signals:
    // A write went through (also a LockKeeper's extension) but its audit line could not be written.
    void auditLost(const lockscope::RedisError& error, const QString& action, const QByteArray& resource);

private:
    struct Acquisition;

    void attempt(const std::shared_ptr<Acquisition>& acquisition);
    void onAttempt(const std::shared_ptr<Acquisition>& acquisition, const QuorumCall::Tally& tally);
    void finish(const QString& action, const RedlockLease& lease, RedlockOutcome outcome, const Done& done,
                bool recorded = true);
    // `recorded`: false when the refusal is that nothing can be recorded.
    void refuseLater(const QString& action, const RedlockLease& lease, WriteVerdict verdict, RedisError error,
                     const Done& done, bool recorded = true);
    // The gate's refusal of `action`, if any, reported later; true when refused.
    bool refusedByGate(const QString& action, const RedlockLease& lease, const Done& done);
    bool canStillReachQuorum() const;
    int releaseTimeoutMs() const;
    int randomRetryDelayMs() const;
    RedlockOutcome outcomeFrom(const QuorumCall::Tally& tally) const;
    QuorumCall::Until decisionRule() const;

    MasterSet* m_masters;
    LockScopeConfig m_config;
    WriteGate m_gate;
    QStringList m_masterNames; // without passwords, in master order: every outcome carries them
    bool m_waitForAll = false;
};

} // namespace lockscope
