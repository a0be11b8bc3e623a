// SPDX-License-Identifier: Apache-2.0
#include "lockctl/writesession.h"

#include "lockctl/arguments.h"

#include "base/bytesdisplay.h"

#include <algorithm>
#include <optional>

using namespace lockscope;

namespace lockctl {

WriteSession::WriteSession(CliContext& context)
    : m_context(context), m_config(context.config()), m_audit(context.auditLog())
{}

int WriteSession::prepare()
{
    if (const RedisError error = m_audit.check(); error.isError()) {
        // The hint is for the file's problems, not the team database's.
        const bool fileProblem = AuditLog(m_audit.path(), m_audit.allowsShared()).check().isError();
        return m_context.fail(
            UsageError, error.message + (fileProblem ? QStringLiteral(" (--audit-log FILE chooses another)")
                                                     : QString()));
    }
    if (const QString shared = m_audit.permissionProblem(); !shared.isEmpty())
        m_context.err() << "lockctl: warning: audit log " << m_audit.path() << " is " << shared << Qt::endl;
    return Done;
}

Redlock& WriteSession::redlock()
{
    if (!m_redlock) {
        m_redlock = std::make_unique<Redlock>(&m_context.openMasters(), m_config, &m_audit);
        m_redlock->setWaitForAllMasters(true); // the output says what every master did
        // Every write through it, a hold's extensions and final release included.
        QObject::connect(
            m_redlock.get(), &Redlock::auditLost,
            [this](const RedisError& error, const QString& action, const QByteArray& resource) {
                m_context.noteAuditLost(
                    QStringLiteral("%1 %2: %3").arg(action, escapeBytes(resource), error.message));
            });
    }
    return *m_redlock;
}

RedlockOutcome WriteSession::wait(const std::function<void(Redlock::Done)>& start)
{
    std::optional<RedlockOutcome> result;
    start([&result](const RedlockOutcome& outcome) { result = outcome; });
    // Every round is bounded by its own timer; this bound only guards against a bug hanging a script.
    m_context.waitUntil([&result] { return result.has_value(); }, 24 * 3600 * 1000);
    if (!result) {
        RedlockOutcome lost;
        lost.verdict = WriteVerdict::Unavailable;
        lost.error = {ErrorKind::Cancelled, QString(), QStringLiteral("gave up waiting")};
        return lost;
    }
    return *result;
}

void WriteSession::printFailures(const RedlockOutcome& outcome)
{
    for (int i = 0; i < outcome.votes.size(); ++i)
        if (outcome.votes.at(i).answer == MasterVote::Answer::Failed)
            m_context.err() << "lockctl:   " << outcome.masters.value(i) << ": "
                            << errorKindName(outcome.votes.at(i).error.kind) << ": "
                            << outcome.votes.at(i).error.message << Qt::endl;
}

void WriteSession::warnAboutFailedMasters(const RedlockOutcome& outcome)
{
    const bool anyFailed = std::any_of(outcome.votes.cbegin(), outcome.votes.cend(), [](const MasterVote& v) {
        return v.answer == MasterVote::Answer::Failed;
    });
    if (!anyFailed)
        return;
    m_context.err() << "lockctl: warning: done on a quorum, but not on every master:" << Qt::endl;
    printFailures(outcome);
}

RedlockOutcome WriteSession::acquire(const QByteArray& resource, qint64 ttlMs, const QString& owner)
{
    return wait([&](Redlock::Done done) { redlock().acquire(resource, ttlMs, owner, std::move(done)); });
}

RedlockOutcome WriteSession::extend(const RedlockLease& lease, qint64 ttlMs)
{
    return wait([&](Redlock::Done done) { redlock().extend(lease, ttlMs, std::move(done)); });
}

RedlockOutcome WriteSession::release(const RedlockLease& lease)
{
    return wait([&](Redlock::Done done) { redlock().release(lease, std::move(done)); });
}

bool WriteSession::applyRetryOptions(const QCommandLineParser& parser, QString* problem)
{
    lockscope::RedlockSettings& redlock = m_config.redlock;
    if (parser.isSet(QStringLiteral("retries"))) {
        const auto retries = NumberArgument::parse(QStringLiteral("retries"),
                                                   parser.value(QStringLiteral("retries")), 0, 1000, problem);
        if (!retries)
            return false;
        redlock.retryCount = int(*retries);
    }
    if (parser.isSet(QStringLiteral("retry-delay"))) {
        const auto delay = NumberArgument::parse(
            QStringLiteral("retry-delay"), parser.value(QStringLiteral("retry-delay")), 0, 600000, problem);
        if (!delay)
            return false;
        redlock.retryDelayMs = int(*delay);
        // The jitter is +- around the delay: it must not make a retry come earlier than now.
        redlock.retryJitterMs = qMin(redlock.retryJitterMs, int(*delay));
    }
    return true;
}

} // namespace lockctl
