// SPDX-License-Identifier: Apache-2.0
#include "formats/redissonformats.h"

#include "formats/byteshapes.h"
#include "formats/holderset.h"

#include <optional>

namespace lockscope::recognition {

namespace {

struct RedissonField
{
    QByteArray instance;
    QByteArray thread;
    bool write = false;
};

// "<instance uuid>:<thread id>", and for a read-write lock's writer "<uuid>:<thread id>:write".
std::optional<RedissonField> parseRedissonField(const QByteArray& field, bool allowWrite)
{
    if (field.size() < 38 || field[36] != ':' || !isUuidText(field.first(36)))
        return std::nullopt;
    RedissonField out;
    out.instance = field.first(36);
    QByteArray thread = field.sliced(37);
    if (allowWrite && thread.endsWith(":write")) {
        out.write = true;
        thread.chop(6);
    }
    if (thread.size() > 19 || !allOf(thread, isDigit))
        return std::nullopt;
    out.thread = thread;
    return out;
}

} // namespace

RecognizedLock recognizeRedissonHash(const KeyObservation& o)
{
    QByteArrayList names;
    names.reserve(o.fields.size());
    std::optional<QByteArray> mode;
    for (const auto& [name, value] : o.fields) {
        names.append(name);
        if (name == "mode")
            mode = value;
    }
    const bool readWrite = mode && (*mode == "read" || *mode == "write");
    if (mode && !readWrite)
        return unknownCollection(o, names, QStringLiteral("hash of unknown shape"));

    RecognizedLock lock;
    lock.format = readWrite ? LockFormat::RedissonReadWrite : LockFormat::Redisson;
    QList<LockHolder> holders;
    for (const auto& [name, value] : o.fields) {
        if (readWrite && name == "mode")
            continue;
        const std::optional<RedissonField> field = parseRedissonField(name, readWrite);
        const std::optional<qint64> count = parseCount(value);
        if (!field || !count)
            return unknownCollection(o, names, QStringLiteral("hash of unknown shape"));
        LockHolder holder;
        holder.id = name;
        holder.count = *count;
        holder.owner = QStringLiteral("thread %1 of %2")
                           .arg(QString::fromLatin1(field->thread), QString::fromLatin1(field->instance));
        if (field->write)
            holder.owner += QStringLiteral(" (write)");
        holders.append(holder);
    }
    if (!readWrite && holders.isEmpty())
        return unknownCollection(o, names, QStringLiteral("empty hash"));
    finishHolders(lock, std::move(holders));
    if (readWrite)
        lock.setDetail(QStringLiteral("%1 mode").arg(QString::fromLatin1(*mode)));
    lock.appendDetail(partialNote(o, o.fields.size()));
    return lock;
}

} // namespace lockscope::recognition
