// SPDX-License-Identifier: Apache-2.0
#include "locking/redlock.h"

#include "audit/auditlog.h"
#include "base/monotonicclock.h"
#include "connection/comparedelete.h"
#include "locking/locktoken.h"
#include "locking/redlockscripts.h"
#include "topology/masterset.h"

#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>

namespace lockscope {

namespace {

constexpr qint64 nsPerMs = 1000000;

MasterVote::Answer judgeSet(const RedisReply& reply)
{
    if (reply.isStatus())
        return MasterVote::Answer::Yes; // "OK"
    if (reply.isNil())
        return MasterVote::Answer::No; // NX: the key exists
    return MasterVote::Answer::Failed;
}

// The token scripts answer 1 (done here), 0 (absent) or -1 (another token).
MasterVote::Answer judgeScript(const RedisReply& reply)
{
    if (reply.isInteger())
        return reply.integer == 1 ? MasterVote::Answer::Yes : MasterVote::Answer::No;
    if (RedlockScripts::isWrongType(reply))
        return MasterVote::Answer::No; // some other library's lock under that name: not ours
    return MasterVote::Answer::Failed;
}

QuorumCall::Issue scriptIssue(const RedisScript& script, const QByteArray& key, const QByteArrayList& args)
{
    return [&script, keys = QByteArrayList{key}, args](RedisConnection* c, RedisConnection::Callback reply) {
        c->evalScript(script, keys, args, std::move(reply));
    };
}

// A token-guarded delete: the master's own compare-and-delete command where it has one (it answers
// 1 or 0 as the script does, -1 aside), else the script.
QuorumCall::Issue releaseIssue(const QByteArray& key, const QByteArray& token)
{
    return [key, token](RedisConnection* c, RedisConnection::Callback reply) {
        const QByteArrayList command = compareDeleteCommand(compareDeleteOn(*c), key, token);
        if (command.isEmpty())
            c->evalScript(RedlockScripts::release(), {key}, {token}, std::move(reply));
        else
            c->send(command, std::move(reply));
    };
}

} // namespace

struct Redlock::Acquisition
{
    QByteArray resource;
    QByteArray token;
    qint64 ttlMs = 0;
    QByteArrayList setCommand;
    int retriesLeft = 0;
    int attempts = 0;
    Done done;
};

Redlock::Redlock(MasterSet* masters, const LockScopeConfig& config, const AuditLog* audit, QObject* parent)
    : QObject(parent), m_masters(masters), m_config(config), m_gate(config.readOnly, audit)
{
    for (const RedisConnection* c : m_masters->connections())
        m_masterNames << c->name();
}

QString Redlock::ttlProblem(qint64 ttlMs)
{
    if (ttlMs <= 0)
        return QStringLiteral("the TTL must be a positive number of milliseconds");
    if (ttlMs > maxTtlMs)
        return QStringLiteral("the TTL must be at most %1 ms").arg(maxTtlMs);
    return {};
}

void Redlock::acquire(const QByteArray& resource, qint64 ttlMs, const QString& owner, Done done)
{
    acquireWithToken(resource, LockToken::generate(owner), ttlMs, std::move(done));
}

void Redlock::acquireWithToken(const QByteArray& resource, const QByteArray& token, qint64 ttlMs, Done done)
{
    RedlockLease lease;
    lease.resource = resource;
    lease.token = token;
    lease.ttlMs = ttlMs;
    if (refusedByGate(QStringLiteral("acquire"), lease, done))
        return;
    QString problem = ttlProblem(ttlMs);
    if (problem.isEmpty() && resource.isEmpty())
        problem = QStringLiteral("the resource name is empty");
    if (problem.isEmpty() && token.isEmpty())
        problem = QStringLiteral("the token is empty");
    if (!problem.isEmpty())
        return refuseLater(QStringLiteral("acquire"), lease, WriteVerdict::Invalid,
                           {ErrorKind::InvalidArgument, QString(), problem}, done);

    auto acquisition = std::make_shared<Acquisition>();
    acquisition->resource = resource;
    acquisition->token = token;
    acquisition->ttlMs = ttlMs;
    acquisition->setCommand = {"SET", resource, token, "NX", "PX", QByteArray::number(ttlMs)};
    acquisition->retriesLeft = qMax(0, m_config.redlock.retryCount);
    acquisition->done = std::move(done);
    attempt(acquisition);
}

void Redlock::attempt(const std::shared_ptr<Acquisition>& acquisition)
{
    ++acquisition->attempts;
    QuorumCall::start(
        *m_masters, m_config.redlock.masterTimeoutMs, decisionRule(),
        [&command = acquisition->setCommand](RedisConnection* c, RedisConnection::Callback reply) {
            c->send(command, std::move(reply));
        },
        judgeSet,
        [self = QPointer<Redlock>(this), acquisition](const QuorumCall::Tally& tally) {
            if (self)
                self->onAttempt(acquisition, tally);
        });
}

void Redlock::onAttempt(const std::shared_ptr<Acquisition>& acquisition, const QuorumCall::Tally& tally)
{
    const qint64 ttlMs = acquisition->ttlMs;
    const qint64 driftMs = m_config.driftMs(ttlMs);
    // Validity = ttl - elapsed - drift, with elapsed counted from before the first SET went out.
    const qint64 validUntilNs = tally.startedNs + (ttlMs - driftMs) * nsPerMs;
    const qint64 validityMs = (validUntilNs - tally.decidedNs) / nsPerMs;

    RedlockOutcome outcome = outcomeFrom(tally);
    outcome.attempts = acquisition->attempts;
    outcome.lease.resource = acquisition->resource;
    outcome.lease.token = acquisition->token;
    outcome.lease.ttlMs = ttlMs;
    if (tally.reachedQuorum() && validityMs > 0) {
        outcome.verdict = WriteVerdict::Done;
        outcome.lease.validityMs = validityMs;
        outcome.lease.startedAtNs = tally.startedNs;
        outcome.lease.validUntilNs = validUntilNs;
        finish(QStringLiteral("acquire"), outcome.lease, outcome, acquisition->done);
        return;
    }
    if (tally.reachedQuorum()) {
        outcome.verdict = WriteVerdict::NotDone;
        outcome.error = {
            ErrorKind::Timeout, QString(),
            QStringLiteral("locked %1 of %2 masters, but only after %3 ms: no validity left of the %4 ms TTL")
                .arg(tally.yes)
                .arg(tally.total())
                .arg((tally.decidedNs - tally.startedNs) / nsPerMs)
                .arg(ttlMs)};
    } else if (tally.answered() >= tally.needed) {
        outcome.verdict = WriteVerdict::NotDone;
        outcome.error = {ErrorKind::None, QString(),
                         QStringLiteral("held by someone else: locked %1 of %2 masters, %3 needed")
                             .arg(tally.yes)
                             .arg(tally.total())
                             .arg(tally.needed)};
    } else {
        outcome.verdict = WriteVerdict::Unavailable;
        QString why;
        for (const MasterVote& vote : tally.votes)
            if (vote.answer == MasterVote::Answer::Failed && why.isEmpty())
                why = vote.error.toString();
        outcome.error = {ErrorKind::NotConnected, QString(),
                         QStringLiteral("only %1 of %2 masters answered, %3 needed (%4)")
                             .arg(tally.answered())
                             .arg(tally.total())
                             .arg(tally.needed)
                             .arg(why)};
    }

    // Release on every master, also those that did not answer: their SET may still land, and a
    // partial lock left behind would block everyone until it expires.
    QuorumCall::start(*m_masters, m_config.redlock.masterTimeoutMs, QuorumCall::Until::AllAnswered,
                      releaseIssue(acquisition->resource, acquisition->token), judgeScript,
                      [self = QPointer<Redlock>(this), acquisition, outcome](const QuorumCall::Tally&) {
                          if (!self)
                              return;
                          if (acquisition->retriesLeft > 0 && self->canStillReachQuorum()) {
                              --acquisition->retriesLeft;
                              QTimer::singleShot(self->randomRetryDelayMs(), self.data(),
                                                 [self, acquisition] { self->attempt(acquisition); });
                              return;
                          }
                          self->finish(QStringLiteral("acquire"), outcome.lease, outcome, acquisition->done);
                      });
}

void Redlock::extend(const RedlockLease& lease, qint64 ttlMs, Done done)
{
    if (refusedByGate(QStringLiteral("extend"), lease, done))
        return;
    QString problem = ttlProblem(ttlMs);
    if (problem.isEmpty() && (lease.resource.isEmpty() || lease.token.isEmpty()))
        problem = QStringLiteral("the resource and the token are needed");
    if (!problem.isEmpty())
        return refuseLater(QStringLiteral("extend"), lease, WriteVerdict::Invalid,
                           {ErrorKind::InvalidArgument, QString(), problem}, done);
    const qint64 now = monotonicNs();
    if (!lease.isValidAt(now))
        return refuseLater(QStringLiteral("extend"), lease, WriteVerdict::NotDone,
                           {ErrorKind::Timeout, QString(),
                            QStringLiteral("the lease ran out %1 ms ago: it may already be someone else's")
                                .arg((now - lease.validUntilNs) / nsPerMs)},
                           done);

    // The quorum has to be reached while the old validity lasts: after it, another client may
    // legitimately have taken the lock on the masters that let ours expire.
    int timeoutMs = m_config.redlock.masterTimeoutMs;
    if (lease.validityKnown())
        timeoutMs = int(std::clamp<qint64>(lease.remainingMs(now), 1, qMax(1, timeoutMs)));
    QuorumCall::start(
        *m_masters, timeoutMs, decisionRule(),
        scriptIssue(RedlockScripts::extend(), lease.resource, {lease.token, QByteArray::number(ttlMs)}),
        judgeScript, [self = QPointer<Redlock>(this), lease, ttlMs, done](const QuorumCall::Tally& tally) {
            if (!self)
                return;
            const qint64 validUntilNs = tally.startedNs + (ttlMs - self->m_config.driftMs(ttlMs)) * nsPerMs;
            const qint64 validityMs = (validUntilNs - tally.decidedNs) / nsPerMs;
            const bool inTime = !lease.validityKnown() || tally.decidedNs < lease.validUntilNs;
            RedlockOutcome outcome = self->outcomeFrom(tally);
            outcome.attempts = 1;
            outcome.lease = lease;
            if (tally.reachedQuorum() && validityMs > 0 && inTime) {
                outcome.verdict = WriteVerdict::Done;
                outcome.lease.ttlMs = ttlMs;
                outcome.lease.validityMs = validityMs;
                outcome.lease.startedAtNs = tally.startedNs;
                outcome.lease.validUntilNs = validUntilNs;
            } else if (tally.answered() >= tally.needed || tally.reachedQuorum()) {
                outcome.verdict = WriteVerdict::NotDone;
                outcome.error = {
                    ErrorKind::None, QString(),
                    tally.reachedQuorum()
                        ? QStringLiteral("extended too late: the lease had run out")
                        : QStringLiteral("the token is no longer held: extended on %1 of %2 masters, "
                                         "%3 needed")
                              .arg(tally.yes)
                              .arg(tally.total())
                              .arg(tally.needed)};
            } else {
                outcome.verdict = WriteVerdict::Unavailable;
                outcome.error = {ErrorKind::NotConnected, QString(),
                                 QStringLiteral("only %1 of %2 masters answered, %3 needed")
                                     .arg(tally.answered())
                                     .arg(tally.total())
                                     .arg(tally.needed)};
            }
            self->finish(QStringLiteral("extend"), outcome.lease, outcome, done);
        });
}

int Redlock::releaseTimeoutMs() const
{
    // The per-master timeout is Redlock's for acquiring: an answer later than it leaves too little of
    // the TTL. No validity rides on a release, and what it reports must be what the masters did: a
    // master that answers after 60 ms on a busy machine does release (CI's sanitizer pass once had
    // `lockctl release` exit "unavailable" on three healthy masters). So it waits as long as the
    // connections wait for any command.
    int timeoutMs = m_config.redlock.masterTimeoutMs;
    for (int i = 0; i < m_masters->size(); ++i)
        timeoutMs = qMax(timeoutMs, m_masters->at(i)->options().commandTimeoutMs);
    return timeoutMs;
}

void Redlock::release(const RedlockLease& lease, Done done)
{
    if (refusedByGate(QStringLiteral("release"), lease, done))
        return;
    if (lease.resource.isEmpty() || lease.token.isEmpty())
        return refuseLater(
            QStringLiteral("release"), lease, WriteVerdict::Invalid,
            {ErrorKind::InvalidArgument, QString(), QStringLiteral("the resource and the token are needed")},
            done);
    QuorumCall::start(*m_masters, releaseTimeoutMs(), QuorumCall::Until::AllAnswered,
                      releaseIssue(lease.resource, lease.token), judgeScript,
                      [self = QPointer<Redlock>(this), lease, done](const QuorumCall::Tally& tally) {
                          if (!self)
                              return;
                          RedlockOutcome outcome = self->outcomeFrom(tally);
                          outcome.attempts = 1;
                          outcome.lease = lease;
                          if (tally.answered() < tally.needed) {
                              // The silent masters may still hold it, and they could be a quorum.
                              outcome.verdict = WriteVerdict::Unavailable;
                              outcome.error = {ErrorKind::NotConnected, QString(),
                                               QStringLiteral("only %1 of %2 masters answered, %3 needed: "
                                                              "released on %4")
                                                   .arg(tally.answered())
                                                   .arg(tally.total())
                                                   .arg(tally.needed)
                                                   .arg(tally.yes)};
                          } else if (tally.yes == 0) {
                              outcome.verdict = WriteVerdict::NotDone;
                              outcome.error = {
                                  ErrorKind::None, QString(),
                                  QStringLiteral("the token was found on no master: nothing deleted")};
                          } else {
                              outcome.verdict = WriteVerdict::Done;
                          }
                          self->finish(QStringLiteral("release"), lease, outcome, done);
                      });
}

bool Redlock::refusedByGate(const QString& action, const RedlockLease& lease, const Done& done)
{
    const RedisError refusal = m_gate.admit(action);
    if (!refusal.isError())
        return false;
    // A read-only refusal is recorded; one because the log cannot be written cannot be.
    refuseLater(action, lease, WriteVerdict::Refused, refusal, done, refusal.kind == ErrorKind::ReadOnlyMode);
    return true;
}

void Redlock::refuseLater(const QString& action, const RedlockLease& lease, WriteVerdict verdict,
                          RedisError error, const Done& done, bool recorded)
{
    RedlockOutcome outcome;
    outcome.verdict = verdict;
    outcome.error = std::move(error);
    outcome.lease = lease;
    outcome.total = m_masters->size();
    outcome.needed = m_masters->needed();
    outcome.votes.resize(m_masters->size());
    outcome.masters = m_masterNames;
    QMetaObject::invokeMethod(
        this,
        [this, action, lease, outcome, done, recorded] { finish(action, lease, outcome, done, recorded); },
        Qt::QueuedConnection);
}

void Redlock::finish(const QString& action, const RedlockLease& lease, RedlockOutcome outcome,
                     const Done& done, bool recorded)
{
    if (recorded && m_gate.audit()) {
        AuditRecord record = AuditRecord::now(action, lease.resource);
        record.masters = outcome.masters;
        record.token = lease.token;
        record.outcome = writeVerdictName(outcome.verdict);
        record.message = outcome.error.message;
        if (action == QLatin1String("acquire") && outcome.attempts > 1)
            record.message =
                QStringLiteral("%1 attempts%2%3")
                    .arg(outcome.attempts)
                    .arg(record.message.isEmpty() ? QString() : QStringLiteral("; "), record.message);
        for (int i = 0; i < outcome.votes.size(); ++i) {
            const MasterVote& vote = outcome.votes.at(i);
            AuditRecord::MasterResult result;
            result.master = outcome.masters.value(i);
            result.result = redlockVoteResult(action, vote);
            if (vote.answer == MasterVote::Answer::Failed)
                result.detail = vote.error.message;
            record.results << result;
        }
        outcome.auditError = m_gate.record(record);
        if (outcome.auditLost())
            emit auditLost(outcome.auditError, action, lease.resource);
    }
    if (done)
        done(outcome);
}

RedlockOutcome Redlock::outcomeFrom(const QuorumCall::Tally& tally) const
{
    RedlockOutcome outcome;
    outcome.succeeded = tally.yes;
    outcome.answered = tally.answered();
    outcome.total = tally.total();
    outcome.needed = tally.needed;
    outcome.elapsedUs = (tally.decidedNs - tally.startedNs) / 1000;
    outcome.votes = tally.votes;
    outcome.masters = m_masterNames;
    return outcome;
}

QuorumCall::Until Redlock::decisionRule() const
{
    return m_waitForAll ? QuorumCall::Until::AllAnswered : QuorumCall::Until::Quorum;
}

bool Redlock::canStillReachQuorum() const
{
    // A master that is down for good (closed, or down with reconnection switched off, as in a
    // one-shot lockctl) cannot answer a retry: waiting for it only delays the verdict.
    int reachable = 0;
    for (const RedisConnection* c : m_masters->connections()) {
        const RedisConnection::State s = c->state();
        const bool gone = s == RedisConnection::State::Disconnected ||
                          (s == RedisConnection::State::Down && !c->options().autoReconnect);
        reachable += gone ? 0 : 1;
    }
    return reachable >= m_masters->needed();
}

int Redlock::randomRetryDelayMs() const
{
    const RedlockSettings& s = m_config.redlock;
    const int jitter = qMax(0, s.retryJitterMs);
    const int offset = jitter > 0 ? int(QRandomGenerator::global()->bounded(2 * jitter + 1)) - jitter : 0;
    return qMax(0, s.retryDelayMs + offset);
}

} // namespace lockscope
