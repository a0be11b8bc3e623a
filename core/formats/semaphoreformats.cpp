// SPDX-License-Identifier: Apache-2.0
#include "formats/semaphoreformats.h"

#include "formats/byteshapes.h"
#include "formats/holderset.h"

#include <cmath>
#include <map>
#include <optional>

namespace lockscope::recognition {

namespace {

std::optional<qint64> scoreMs(double score)
{
    if (!std::isfinite(score) || score < 0 || score >= 9.0e18)
        return std::nullopt;
    return qint64(score);
}

RecognizedLock recognizeSemaphore(const KeyObservation& o)
{
    RecognizedLock lock;
    lock.format = LockFormat::Semaphore;
    // redis-semaphore's multi-permit holders add one member "<id>_<i>" per permit.
    std::map<QByteArray, LockHolder> byId;
    qint64 permits = 0;
    for (const auto& [member, score] : o.members) {
        QByteArray id = member;
        const qsizetype underscore = member.lastIndexOf('_');
        if (underscore > 0 && parseCount(QByteArrayView(member).sliced(underscore + 1)))
            id = member.first(underscore);
        const auto [at, added] = byId.try_emplace(id);
        LockHolder& holder = at->second;
        if (added)
            holder.id = id;
        else
            ++holder.count;
        const std::optional<qint64> since = scoreMs(score);
        if (since && (holder.sinceMs < 0 || *since < holder.sinceMs))
            holder.sinceMs = *since;
        ++permits;
    }
    QList<LockHolder> holders;
    holders.reserve(qsizetype(byId.size()));
    for (auto& [id, holder] : byId)
        holders.append(holder);
    finishHolders(lock, std::move(holders));
    lock.setDetail(QStringLiteral("%1 holders, %2 permits").arg(lock.listedHolders().size()).arg(permits));
    lock.appendDetail(partialNote(o, o.members.size()));
    return lock;
}

} // namespace

RecognizedLock recognizeSortedSet(const QByteArray& key, const KeyObservation& o)
{
    if (key.startsWith("semaphore:"))
        return recognizeSemaphore(o);
    QByteArrayList members;
    for (const auto& [member, score] : o.members)
        members.append(member);
    return unknownCollection(o, members, QStringLiteral("sorted set"));
}

bool isSemaphoreMutexKey(const QByteArray& key)
{
    return key.startsWith("mutex:");
}

bool isSuffixedMutexToken(const QByteArray& key, const QByteArray& value)
{
    return isSemaphoreMutexKey(key) && value.size() > 37 && value[36] == '-' && isUuidText(value.first(36)) &&
           isPrintableText(value, false);
}

} // namespace lockscope::recognition
