// SPDX-License-Identifier: Apache-2.0
#include "locking/forcereleaseplanner.h"

#include "base/bytesdisplay.h"

#include <algorithm>

namespace lockscope {

namespace {

using Kind = ForceReleaseStep::Kind;

QString anyHolder()
{
    return QStringLiteral("whatever it holds then (any token)");
}

const QByteArray& plainPrefix()
{
    static const QByteArray prefix = "redisson_lock__channel";
    return prefix;
}

bool isRedissonHash(const RecognizedLock& lock)
{
    return lock.format == LockFormat::Redisson || lock.format == LockFormat::RedissonReadWrite;
}

QByteArray modeOf(const KeyObservation& o)
{
    for (const auto& [name, value] : o.fields)
        if (name == "mode")
            return value;
    return {};
}

// How Redisson's own unlock wakes the waiters once the key is gone (RedissonLock, RedissonFairLock,
// RedissonReadLock, RedissonWriteLock unlockInnerAsync / forceUnlockAsync).
ForceReleaseStep::Command wakeOn(const QByteArray& name, const QByteArray& mode, const QByteArray& fairWaiter)
{
    if (mode == "read" || mode == "write")
        // A write unlock sends READ_UNLOCK_MESSAGE (1, wakes every waiter), a read unlock UNLOCK_MESSAGE (0).
        return {"PUBLISH", ForceReleasePlanner::redissonChannel(name, true), mode == "write" ? "1" : "0"};
    if (!fairWaiter.isEmpty())
        // A fair lock's waiters each listen on their own channel; the first in the queue is woken.
        return {"PUBLISH", ForceReleasePlanner::redissonChannel(name, false) + ':' + fairWaiter, "0"};
    return {"PUBLISH", ForceReleasePlanner::redissonChannel(name, false), "0"};
}

// On a cluster, Redisson (ShardedSubscriptionMode AUTO, Redis 7) subscribes with SSUBSCRIBE and
// publishes with SPUBLISH (PublishSubscribeService.getPublishCommand()).
ForceReleaseStep::Command wakeCommand(const QByteArray& name, const QByteArray& mode,
                                      const ForceReleaseTarget& t)
{
    ForceReleaseStep::Command command = wakeOn(name, mode, t.fairWaiter);
    if (t.sharded)
        command.first() = "SPUBLISH";
    return command;
}

ForceReleaseStep planHash(const ForceReleaseRequest& request, const ForceReleaseTarget& t)
{
    ForceReleaseStep step;
    const QByteArray& key = request.resource;
    const bool readWrite = t.lock.format == LockFormat::RedissonReadWrite;
    step.mode = readWrite ? modeOf(t.observation) : QByteArray();
    if (!readWrite)
        step.waitKeys = {ForceReleasePlanner::redissonPrefixed("redisson_lock_queue", key),
                         ForceReleasePlanner::redissonPrefixed("redisson_lock_timeout", key)};
    if (request.mode == ForceReleaseMode::AnyToken) {
        step.kind = Kind::Delete;
        step.commands = {{"DEL", key}, wakeCommand(key, step.mode, t)};
        step.condition = anyHolder();
        return step;
    }
    // One holder id, or the whole holder set as `list` prints it (ids joined by ',').
    QByteArrayList ids;
    const QList<LockHolder> holderList = t.lock.holderList();
    const auto held = [&holderList](const QByteArray& id) {
        return std::find_if(holderList.cbegin(), holderList.cend(),
                            [&id](const LockHolder& h) { return h.id == id; });
    };
    if (held(request.expectedToken) != holderList.cend())
        ids = {request.expectedToken};
    else
        for (const QByteArray& id : request.expectedToken.split(','))
            if (!ids.contains(id))
                ids << id;
    for (const QByteArray& id : std::as_const(ids)) {
        const auto h = held(id);
        if (h == holderList.cend()) {
            step.kind = Kind::Spare;
            step.why = QStringLiteral("holder %1 is not there (it holds %2)")
                           .arg(escapeBytes(id), escapeBytes(t.lock.token));
            return step;
        }
        step.removedHolders.append({id, h->count});
    }
    const qint64 holders =
        t.observation.truncated ? t.observation.elementCount - (readWrite ? 1 : 0) : holderList.size();
    step.holdersLeft = holders - ids.size();
    bool writerLeaves = false;
    for (const auto& [id, count] : std::as_const(step.removedHolders)) {
        step.commands.append({"HDEL", key, id});
        writerLeaves = writerLeaves || (readWrite && id.endsWith(":write"));
    }
    // A reader keeps one lease key per entry; its own unlock deletes them (RedissonReadLock).
    for (const auto& [id, count] : std::as_const(step.removedHolders)) {
        if (!readWrite || id.endsWith(":write"))
            continue;
        for (qint64 i = 1; i <= count && i <= 1000; ++i) {
            const QByteArray lease =
                ForceReleasePlanner::redissonSuffixed(key, id) + ":rwlock_timeout:" + QByteArray::number(i);
            step.leaseKeys << lease;
            step.commands.append({"DEL", lease});
        }
    }
    if (step.holdersLeft <= 0) {
        step.kind = Kind::Delete;
        step.commands.append({"DEL", key});
        step.commands.append(wakeCommand(key, step.mode, t));
    } else {
        step.kind = Kind::RemoveHolders;
        // The writer's own read locks stay: the lock goes back to read mode (RedissonWriteLock).
        if (writerLeaves && step.mode == "write")
            step.commands.append({"HSET", key, "mode", "read"});
    }
    return step;
}

ForceReleaseStep planString(const ForceReleaseRequest& request, const ForceReleaseTarget& t,
                            const QByteArray& signalKey)
{
    ForceReleaseStep step;
    if (request.mode == ForceReleaseMode::ExpectToken && t.observation.value != request.expectedToken) {
        step.kind = Kind::Spare;
        step.why = QStringLiteral("the token is now %1").arg(escapeBytes(t.lock.token));
        return step;
    }
    step.kind = Kind::Delete;
    step.commands = {{"DEL", request.resource}};
    step.condition = request.mode == ForceReleaseMode::ExpectToken
                         ? QStringLiteral("if it still holds the token shown")
                         : anyHolder();
    if (!signalKey.isEmpty())
        step.commands << ForceReleaseStep::Command{"LPUSH", signalKey, "1"}
                      << ForceReleaseStep::Command{"PEXPIRE", signalKey, "1000"};
    return step;
}

bool isPermitOf(const QByteArray& member, const QByteArray& id)
{
    if (member == id)
        return true;
    if (!member.startsWith(QByteArray(id + '_')) || member.size() == id.size() + 1)
        return false;
    const QByteArrayView rest = QByteArrayView(member).sliced(id.size() + 1);
    return std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
}

ForceReleaseStep planZset(const ForceReleaseRequest& request, const ForceReleaseTarget& t)
{
    ForceReleaseStep step;
    if (request.mode == ForceReleaseMode::AnyToken) {
        step.kind = Kind::Delete;
        step.commands = {{"DEL", request.resource}};
        step.condition = anyHolder();
        return step;
    }
    for (const auto& [member, score] : t.observation.members)
        if (isPermitOf(member, request.expectedToken))
            step.commands.append({"ZREM", request.resource, member});
    if (step.commands.isEmpty()) {
        step.kind = Kind::Spare;
        step.why = QStringLiteral("holder %1 is not there").arg(escapeBytes(request.expectedToken));
        return step;
    }
    step.kind = Kind::RemoveHolders;
    step.condition = QStringLiteral("if the holder is still there");
    return step;
}

} // namespace

QByteArray ForceReleasePlanner::redissonPrefixed(const QByteArray& prefix, const QByteArray& name)
{
    if (name.contains('{'))
        return prefix + ':' + name;
    return prefix + ":{" + name + '}';
}

QByteArray ForceReleasePlanner::redissonSuffixed(const QByteArray& name, const QByteArray& suffix)
{
    if (name.contains('{'))
        return name + ':' + suffix;
    return '{' + name + "}:" + suffix;
}

QByteArray ForceReleasePlanner::redissonChannel(const QByteArray& name, bool readWrite)
{
    return redissonPrefixed(readWrite ? QByteArray("redisson_rwlock") : plainPrefix(), name);
}

ForceReleaseStep ForceReleasePlanner::plan(const ForceReleaseRequest& request, const ForceReleaseTarget& t)
{
    ForceReleaseStep step;
    if (t.observation.error.isError()) {
        step.why = QStringLiteral("unreachable: ") + t.observation.error.message;
        return step;
    }
    if (!t.observation.present) {
        step.why = QStringLiteral("absent");
        return step;
    }
    const QByteArray& type = t.observation.type;
    if (!t.notALock.isEmpty() && !request.forceUnknown) {
        step.kind = Kind::Refuse;
        step.why = t.notALock;
        return step;
    }
    if (type == "string") {
        QByteArray signalKey;
        if (t.lock.format == LockFormat::PythonRedisLock && request.resource.startsWith("lock:"))
            signalKey = "lock-signal:" + request.resource.mid(5);
        return planString(request, t, signalKey);
    }
    if (type == "hash" && isRedissonHash(t.lock))
        return planHash(request, t);
    if (type == "zset")
        return planZset(request, t);
    if (request.mode == ForceReleaseMode::AnyToken && request.forceUnknown) {
        step.kind = Kind::Delete;
        step.commands = {{"DEL", request.resource}};
        step.condition = anyHolder();
        return step;
    }
    step.kind = Kind::Refuse;
    step.why = QStringLiteral("a %1 key: only --any-token --force-unknown deletes it")
                   .arg(escapeBytes(type.left(32)));
    return step;
}

QByteArrayList ForceReleasePlanner::scriptKeys(const ForceReleaseRequest& request,
                                               const ForceReleaseTarget& t)
{
    QByteArrayList keys{request.resource};
    if (!t.step.waitKeys.isEmpty()) {
        keys << t.step.waitKeys;
    } else {
        for (const ForceReleaseStep::Command& c : t.step.commands)
            if (c.first() == "LPUSH")
                keys << c.at(1);
    }
    return keys;
}

QByteArrayList ForceReleasePlanner::compareDelete(const ForceReleaseRequest& request,
                                                  const ForceReleaseTarget& t, CompareDelete how)
{
    const bool oneDelete = t.step.kind == ForceReleaseStep::Kind::Delete && t.step.commands.size() == 1 &&
                           t.step.commands.first() == ForceReleaseStep::Command{"DEL", request.resource};
    if (request.mode != ForceReleaseMode::ExpectToken || request.expectedToken.isEmpty() || !oneDelete ||
        t.observation.type != "string" || t.sharded)
        return {};
    return compareDeleteCommand(how, request.resource, request.expectedToken);
}

QByteArrayList ForceReleasePlanner::scriptArgs(const ForceReleaseRequest& request,
                                               const ForceReleaseTarget& t, qint64 nowWallMs)
{
    const ForceReleaseStep& step = t.step;
    QByteArrayList args{request.mode == ForceReleaseMode::AnyToken ? QByteArray("any") : QByteArray("expect"),
                        request.expectedToken,
                        request.forceUnknown ? QByteArray("1") : QByteArray("0"),
                        redissonChannel(request.resource, false),
                        redissonChannel(request.resource, true),
                        QByteArray::number(nowWallMs),
                        step.mode,
                        QByteArray::number(step.holdersLeft),
                        QByteArray::number(step.removedHolders.size())};
    for (const auto& [id, count] : step.removedHolders)
        args << id << QByteArray::number(count);
    args << QByteArray::number(step.leaseKeys.size()) << step.leaseKeys;
    args << (t.sharded ? QByteArray("SPUBLISH") : QByteArray("PUBLISH")); // always the last one
    return args;
}

} // namespace lockscope
