// SPDX-License-Identifier: Apache-2.0
#include "locking/forcerelease.h"

#include "base/bytesdisplay.h"

#include "audit/auditlog.h"
#include "audit/writegate.h"
#include "discovery/keyreader.h"
#include "formats/lockformatrecognizer.h"
#include "locking/forcereleaseplanner.h"
#include "locking/redlockscripts.h"
#include "topology/masterset.h"

#include <QDateTime>
#include <QHash>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace lockscope {

namespace {

using Action = ForceReleaseMasterResult::Action;

bool isLockType(const QByteArray& type)
{
    return type == "string" || type == "hash" || type == "zset";
}

QString whyNotALock(const KeyObservation& observation, const RecognizedLock& lock)
{
    if (!observation.present)
        return {};
    if (!isLockType(observation.type))
        return QStringLiteral("a %1 key is no lock").arg(escapeBytes(observation.type));
    if (lock.auxiliary)
        return QStringLiteral("an auxiliary key of %1, not a lock itself").arg(lockFormatName(lock.format));
    if (lock.format == LockFormat::Unknown)
        return QStringLiteral("not recognised as a lock");
    return {};
}

Action actionFromScript(const QByteArray& word)
{
    if (word == "deleted")
        return Action::Deleted;
    if (word == "holder-removed")
        return Action::HolderRemoved;
    if (word == "spared")
        return Action::Spared;
    if (word == "absent")
        return Action::Absent;
    if (word == "wrong-type")
        return Action::WrongType;
    return Action::Failed;
}

// The reply of RedlockScripts::forceRelease() on one master, into its result.
void readScriptReply(const RedisResult& result, const QString& name, ForceReleaseMasterResult& r)
{
    const RedisReply& reply = result.reply;
    if (result.ok() && RedlockScripts::isWrongType(reply)) {
        // Some other library's key under that name: not a lock of ours, nothing changed.
        r.action = Action::WrongType;
        r.detail = QStringLiteral("not a lock of ours (WRONGTYPE): not deleted");
    } else if (!result.ok() || reply.isError() || !reply.isArray() || reply.elements.size() != 4) {
        r.action = Action::Failed;
        r.error = result.ok() && !reply.isError()
                      ? RedisError(ErrorKind::Protocol, name, QStringLiteral("unexpected script reply"))
                      : result.anyError(name);
    } else {
        r.action = actionFromScript(reply.elements.at(0).string);
        r.tokenBefore = reply.elements.at(1).string;
        r.detail = escapeBytes(reply.elements.at(2).string);
        if (r.action == Action::WrongType)
            r.detail = QStringLiteral("a %1 key: not deleted").arg(r.detail);
        for (const RedisReply& command : reply.elements.at(3).elements) {
            QByteArrayList argv;
            for (const RedisReply& arg : command.elements)
                argv << (arg.isInteger() ? QByteArray::number(arg.integer) : arg.string);
            r.commands << argv;
        }
    }
}

QList<ForceReleaseMasterResult> blankResults(MasterSet& masters, const ForceReleaseRequest& request)
{
    QList<ForceReleaseMasterResult> results;
    for (int i = 0; i < masters.size(); ++i) {
        ForceReleaseMasterResult r;
        r.index = i;
        r.master = masters.at(i)->name();
        r.action =
            request.masters.isEmpty() || request.masters.contains(i) ? Action::NotSent : Action::NotChosen;
        results << r;
    }
    return results;
}

// What every audit line of a force-release says, carried out or cancelled: the masters, the
// token seen, and how the request was guarded.
AuditRecord auditRecordOf(const MasterSet& masters, const ForceReleasePlan& plan)
{
    AuditRecord record = AuditRecord::now(QStringLiteral("force-release"), plan.request.resource);
    for (const RedisConnection* c : masters.connections())
        record.masters << c->name();
    if (plan.anyPresent())
        record.tokenBefore = plan.tokenSeen;
    if (plan.request.mode == ForceReleaseMode::ExpectToken) {
        record.expectedToken = plan.request.expectedToken;
        record.mode = QStringLiteral("expect-token");
    } else {
        record.mode = QStringLiteral("any-token");
    }
    return record;
}

void finish(MasterSet& masters, const WriteGate& gate, const ForceReleasePlan& plan,
            ForceReleaseOutcome outcome, const ForceRelease::Done& done)
{
    if (gate.audit()) {
        AuditRecord record = auditRecordOf(masters, plan);
        if (outcome.sentAtMs > 0)
            record.time = QDateTime::fromMSecsSinceEpoch(outcome.sentAtMs, Qt::UTC);
        record.outcome = outcome.outcomeName();
        record.message = outcome.error.message;
        if (record.message.isEmpty() && outcome.spared() > 0 && outcome.ok())
            record.message = outcome.outcomeText() + QStringLiteral(": the holder had changed there");
        if (plan.unrecognisedFormat())
            record.message =
                record.message.isEmpty()
                    ? QStringLiteral("a key of no lock format LockScope knows")
                    : QString(QStringLiteral("a key of no lock format LockScope knows; ") + record.message);
        for (const ForceReleaseMasterResult& r : outcome.results) {
            AuditRecord::MasterResult m;
            m.master = r.master;
            m.result = forceReleaseActionName(r.action);
            if (r.action == Action::Deleted || r.action == Action::HolderRemoved ||
                r.action == Action::Spared)
                m.tokenBefore = r.tokenBefore;
            m.detail = r.error.isError() ? r.error.message : r.detail;
            record.results << m;
        }
        if (const RedisError error = gate.record(record); error.isError())
            outcome.auditError = error;
    }
    done(outcome);
}

// Reports from the event loop, with the master set as the context that must still exist.
void later(MasterSet& masters, std::function<void()> work)
{
    QTimer::singleShot(0, &masters, std::move(work));
}

} // namespace

QByteArray ForceRelease::redissonChannel(const QByteArray& name)
{
    return ForceReleasePlanner::redissonChannel(name, false);
}

void ForceRelease::inspect(MasterSet& masters, const LockScopeConfig& config,
                           const ForceReleaseRequest& request, Inspected done)
{
    struct Job
    {
        ForceReleasePlan plan;
        int outstanding = 0;
        Inspected done;
    };
    auto job = std::make_shared<Job>();
    job->plan.request = request;
    job->done = std::move(done);
    for (int i = 0; i < masters.size(); ++i) {
        if (!request.masters.isEmpty() && !request.masters.contains(i))
            continue;
        ForceReleaseTarget target;
        target.index = i;
        target.master = masters.at(i)->name();
        target.sharded = masters.isCluster(i);
        job->plan.targets << target;
    }
    auto complete = [job, config, &masters] {
        ForceReleasePlan& plan = job->plan;
        const qint64 nowWallMs = QDateTime::currentMSecsSinceEpoch();
        for (ForceReleaseTarget& t : plan.targets) {
            if (!t.observation.present)
                continue;
            t.lock = LockFormatRecognizer::recognize(plan.request.resource, t.observation, config.ownerRules,
                                                     nowWallMs);
            t.notALock = whyNotALock(t.observation, t.lock);
            if (plan.refusal.isEmpty() && !t.notALock.isEmpty())
                plan.refusal = t.master + QStringLiteral(": ") + t.notALock;
            if (plan.tokenSeen.isEmpty())
                plan.tokenSeen = t.lock.token.isEmpty() ? t.observation.value : t.lock.token;
            if (t.lock.format == LockFormat::PythonRedisLock && plan.request.resource.startsWith("lock:"))
                plan.signalKey = "lock-signal:" + plan.request.resource.mid(5);
            if (t.lock.format == LockFormat::Redisson || t.lock.format == LockFormat::RedissonReadWrite)
                plan.redissonChannel = ForceReleasePlanner::redissonChannel(
                    plan.request.resource, t.lock.format == LockFormat::RedissonReadWrite);
        }
        for (ForceReleaseTarget& t : plan.targets) {
            t.step = ForceReleasePlanner::plan(plan.request, t);
            t.step.sentAs =
                ForceReleasePlanner::compareDelete(plan.request, t, compareDeleteOn(*masters.at(t.index)));
        }
        job->done(plan);
    };
    job->outstanding = int(job->plan.targets.size());
    if (job->outstanding == 0)
        return later(masters, complete);
    const QByteArray queueKey =
        ForceReleasePlanner::redissonPrefixed("redisson_lock_queue", request.resource);
    const QByteArray timeoutKey =
        ForceReleasePlanner::redissonPrefixed("redisson_lock_timeout", request.resource);
    for (int t = 0; t < job->plan.targets.size(); ++t) {
        RedisConnection* connection = masters.at(job->plan.targets.at(t).index);
        // A Redisson fair lock's waiters: who would be woken. Read before the lock itself, and only
        // used when the lock turns out to be a Redisson hash without a mode.
        auto queue = std::make_shared<QByteArrayList>();
        auto deadlines = std::make_shared<QHash<QByteArray, double>>();
        connection->send({"LRANGE", queueKey, "0", "-1"}, [queue](const RedisResult& r) {
            if (r.ok() && r.reply.isArray())
                for (const RedisReply& e : r.reply.elements)
                    *queue << e.string;
        });
        connection->send({"ZRANGE", timeoutKey, "0", "-1", "WITHSCORES"}, [deadlines](const RedisResult& r) {
            if (r.ok() && r.reply.isArray())
                for (qsizetype i = 0; i + 1 < r.reply.elements.size(); i += 2)
                    deadlines->insert(r.reply.elements[i].string, r.reply.elements[i + 1].string.toDouble());
        });
        KeyReader::read(connection, {request.resource}, config.monitor,
                        [job, t, complete, &masters, queue, deadlines](QList<KeyObservation> observations) {
                            ForceReleaseTarget& target = job->plan.targets[t];
                            if (!observations.isEmpty())
                                target.observation = observations.first();
                            const double now = double(QDateTime::currentMSecsSinceEpoch());
                            target.fairWaiters = int(queue->size());
                            for (const QByteArray& waiter : std::as_const(*queue)) {
                                // Redisson prunes a waiter whose deadline has passed; the next one wakes.
                                if (!deadlines->contains(waiter) || deadlines->value(waiter) > now) {
                                    target.fairWaiter = waiter;
                                    break;
                                }
                            }
                            if (--job->outstanding == 0)
                                later(masters, complete);
                        });
    }
}

void ForceRelease::execute(MasterSet& masters, const LockScopeConfig& config, const AuditLog* audit,
                           const ForceReleasePlan& plan, Done done)
{
    const ForceReleaseRequest& request = plan.request;
    ForceReleaseOutcome outcome;
    outcome.results = blankResults(masters, request);
    // The rule every write goes through: read-only mode first, then an audit log that cannot be
    // written; either way before any master is touched.
    const WriteGate gate(config.readOnly, audit);
    auto refuse = [&](WriteVerdict verdict, ErrorKind kind, const QString& message) {
        outcome.verdict = verdict;
        outcome.error = {kind, QString(), message};
        later(masters, [&masters, gate, plan, outcome, done] { finish(masters, gate, plan, outcome, done); });
    };
    if (const RedisError refusal = gate.admit(QStringLiteral("force-release")); refusal.isError()) {
        if (refusal.kind == ErrorKind::ReadOnlyMode) // recorded, as every refused attempt
            return refuse(WriteVerdict::Refused, refusal.kind, refusal.message);
        return later(masters, [outcome, refusal, done]() mutable {
            // Unrecorded deletions are worse than none: nothing is sent, and nothing can be recorded.
            outcome.verdict = WriteVerdict::Invalid;
            outcome.error = refusal;
            done(outcome);
        });
    }
    if (request.resource.isEmpty())
        return refuse(WriteVerdict::Invalid, ErrorKind::InvalidArgument,
                      QStringLiteral("the resource name is empty"));
    if (request.mode == ForceReleaseMode::ExpectToken && request.expectedToken.isEmpty())
        return refuse(WriteVerdict::Invalid, ErrorKind::InvalidArgument,
                      QStringLiteral("a guarded force-release needs the expected token"));
    for (int index : request.masters)
        if (index < 0 || index >= masters.size())
            return refuse(WriteVerdict::Invalid, ErrorKind::InvalidArgument,
                          QStringLiteral("no master number %1").arg(index));
    if (!plan.refusal.isEmpty() && !request.forceUnknown)
        return refuse(WriteVerdict::Refused, ErrorKind::NotALock,
                      QStringLiteral("refusing to delete %1: %2 (--force-unknown deletes it anyway)")
                          .arg(escapeBytes(request.resource), plan.refusal));

    struct Job
    {
        ForceReleaseOutcome outcome;
        int outstanding = 0;
    };
    auto job = std::make_shared<Job>();
    job->outcome = outcome;
    QList<int> chosen;
    for (const ForceReleaseMasterResult& r : outcome.results)
        if (r.action != Action::NotChosen)
            chosen << r.index;
    job->outstanding = int(chosen.size());
    auto complete = [job, &masters, gate, plan, done] {
        ForceReleaseOutcome& o = job->outcome;
        int removed = 0;
        int answered = 0;
        for (const ForceReleaseMasterResult& r : o.results) {
            removed += r.action == Action::Deleted || r.action == Action::HolderRemoved ? 1 : 0;
            answered += r.action != Action::Failed && r.action != Action::NotChosen ? 1 : 0;
        }
        if (removed > 0) {
            o.verdict = WriteVerdict::Done;
        } else if (answered == 0) {
            o.verdict = WriteVerdict::Unavailable;
            o.error = {ErrorKind::NotConnected, QString(), QStringLiteral("no chosen master answered")};
        } else {
            o.verdict = WriteVerdict::NotDone;
            o.error = {ErrorKind::None, QString(), QStringLiteral("nothing deleted")};
        }
        finish(masters, gate, plan, o, done);
    };
    // Only masters whose plan acts get a script: the others do what their plan said (nothing),
    // even if the lock changed back in between, so the preview and the outcome agree.
    const qint64 nowWallMs = QDateTime::currentMSecsSinceEpoch();
    QList<int> sending;
    for (int index : chosen) {
        ForceReleaseMasterResult& r = job->outcome.results[index];
        const auto target = std::find_if(plan.targets.cbegin(), plan.targets.cend(),
                                         [index](const ForceReleaseTarget& t) { return t.index == index; });
        if (target == plan.targets.cend()) { // not inspected: a plan made for other masters
            r.action = Action::Failed;
            r.error = {ErrorKind::InvalidArgument, r.master, QStringLiteral("not inspected")};
            continue;
        }
        switch (target->step.kind) {
        case ForceReleaseStep::Kind::Delete:
        case ForceReleaseStep::Kind::RemoveHolders:
            sending << index;
            continue;
        case ForceReleaseStep::Kind::Nothing:
            if (target->observation.error.isError()) {
                r.action = Action::Failed;
                r.error = target->observation.error;
            } else {
                r.action = Action::Absent;
            }
            continue;
        case ForceReleaseStep::Kind::Spare:
            r.action = Action::Spared;
            r.tokenBefore = target->lock.token;
            r.detail = target->step.why;
            continue;
        case ForceReleaseStep::Kind::Refuse:
            r.action = Action::WrongType;
            r.detail = target->step.why;
            continue;
        }
    }
    job->outstanding = int(sending.size());
    if (sending.isEmpty())
        return later(masters, complete);
    job->outcome.sentAtMs = nowWallMs;
    for (int index : sending) {
        RedisConnection* connection = masters.at(index);
        const ForceReleaseTarget& target =
            *std::find_if(plan.targets.cbegin(), plan.targets.cend(),
                          [index](const ForceReleaseTarget& t) { return t.index == index; });
        auto settle = [job, complete, &masters] {
            if (--job->outstanding == 0)
                later(masters, complete);
        };
        auto runScript = [job, index, connection, settle,
                          keys = ForceReleasePlanner::scriptKeys(plan.request, target),
                          args = ForceReleasePlanner::scriptArgs(plan.request, target, nowWallMs)] {
            connection->evalScript(
                RedlockScripts::forceRelease(), keys, args,
                [job, index, settle, name = connection->name()](const RedisResult& result) {
                    readScriptReply(result, name, job->outcome.results[index]);
                    settle();
                });
        };
        const QByteArrayList fast =
            ForceReleasePlanner::compareDelete(plan.request, target, compareDeleteOn(*connection));
        if (fast.isEmpty()) {
            runScript();
            continue;
        }
        connection->send(fast, [job, index, fast, runScript, settle, name = connection->name(),
                                token = plan.request.expectedToken](const RedisResult& result) {
            ForceReleaseMasterResult& r = job->outcome.results[index];
            if (result.ok() && result.reply.isInteger() && result.reply.integer == 1) {
                r.action = Action::Deleted;
                r.tokenBefore = token;
                r.commands = {fast};
                settle();
            } else if (result.ok() &&
                       (result.reply.isInteger() || RedlockScripts::isWrongType(result.reply))) {
                // Nothing deleted: the key is gone, holds another token, or changed type. The script
                // reads what is there now and says which, exactly as without the command.
                runScript();
            } else {
                r.action = Action::Failed;
                r.error = result.ok() && !result.reply.isError()
                              ? RedisError(ErrorKind::Protocol, name, QStringLiteral("unexpected reply"))
                              : result.anyError(name);
                settle();
            }
        });
    }
}

void ForceRelease::run(MasterSet& masters, const LockScopeConfig& config, const AuditLog* audit,
                       const ForceReleaseRequest& request, Done done)
{
    inspect(masters, config, request, [&masters, config, audit, done](const ForceReleasePlan& plan) {
        execute(masters, config, audit, plan, done);
    });
}

RedisError ForceRelease::recordCancelled(const AuditLog& audit, const MasterSet& masters,
                                         const ForceReleasePlan& plan, const QString& why)
{
    AuditRecord record = auditRecordOf(masters, plan);
    record.outcome = QStringLiteral("cancelled");
    record.message = why;
    return audit.append(record);
}

} // namespace lockscope
