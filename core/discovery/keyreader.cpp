// SPDX-License-Identifier: Apache-2.0
#include "discovery/keyreader.h"

#include "base/monotonicclock.h"
#include "connection/redisconnection.h"

#include <memory>

namespace lockscope {

namespace {

// State shared by the callbacks of one read; the last callback hands the result over.
struct ReadJob : std::enable_shared_from_this<ReadJob>
{
    QList<KeyObservation> observations;
    int outstanding = 0;
    KeyReader::Done done;
    // The two caps a read needs, not the whole MonitorSettings: a default one builds the default
    // patterns (a dozen allocations) for every page of keys read.
    struct Caps
    {
        int maxValueBytes = 0;
        int maxFields = 0;
    } settings;
    RedisConnection* connection = nullptr;
    QByteArrayList keys;
    QList<int> secondPhase; // indexes of keys that are not plain strings (or were cut)
    qint64 readAtMs = 0;    // when the first phase's replies were in
    qint64 sentAtMs = 0;    // when the first phase went out

    void onPttl(int i, const RedisResult& r);
    void onGetRange(int i, const RedisResult& r);
    void finishOne(RedisConnection* connection, const QByteArrayList& keys,
                   const std::shared_ptr<ReadJob>& self);
};

// The caps hold even against a server (or proxy) that answers with more than was asked for.
QByteArray capped(const QByteArray& bytes, int maxBytes)
{
    return bytes.size() > maxBytes ? bytes.left(maxBytes) : bytes;
}

bool isWrongType(const RedisResult& r)
{
    return r.isServerError() && r.reply.errorCode() == "WRONGTYPE";
}

void recordError(KeyObservation& o, const RedisResult& r, const QString& master)
{
    if (!o.error.isError())
        o.error = r.anyError(master);
}

void readOthers(RedisConnection* connection, const QByteArrayList& keys, const std::shared_ptr<ReadJob>& job)
{
    // One pipeline with every type's reader: only the matching type answers without WRONGTYPE, so the
    // key's type and content come back together even if it changed since the first read.
    const QByteArray maxFields = QByteArray::number(job->settings.maxFields);
    const QByteArray lastIndex = QByteArray::number(job->settings.maxFields - 1);
    const QByteArray lastByte = QByteArray::number(job->settings.maxValueBytes - 1);
    const QList<int> indexes = job->secondPhase;
    job->secondPhase.clear();
    const qint64 sentAtMs = monotonicMs();
    job->outstanding = int(indexes.size());
    for (int i : indexes) {
        KeyObservation& o = job->observations[i];
        o = KeyObservation();
        o.sentAtMs = sentAtMs;
        const QByteArray& key = keys.at(i);
        auto step = std::make_shared<int>(8);
        auto after = [connection, job, keys, step] {
            if (--*step == 0)
                job->finishOne(connection, keys, job);
        };
        const QString name = connection->name();
        connection->send({"TYPE", key}, [job, i, name, after](const RedisResult& r) {
            KeyObservation& o = job->observations[i];
            if (r.ok() && r.reply.isStatus()) {
                o.type = r.reply.string;
                o.present = o.type != "none";
            } else {
                recordError(o, r, name);
            }
            after();
        });
        connection->send({"PTTL", key}, [job, i, name, after](const RedisResult& r) {
            KeyObservation& o = job->observations[i];
            o.readAtMs = monotonicMs();
            r.ok() && r.reply.isInteger() ? void(o.pttlMs = r.reply.integer) : recordError(o, r, name);
            after();
        });
        connection->send({"GETRANGE", key, "0", lastByte}, [job, i, after](const RedisResult& r) {
            if (r.ok() && r.reply.isString())
                job->observations[i].value = capped(r.reply.string, job->settings.maxValueBytes);
            after();
        });
        connection->send({"STRLEN", key}, [job, i, after](const RedisResult& r) {
            if (r.ok() && r.reply.isInteger())
                job->observations[i].valueSize = r.reply.integer;
            after();
        });
        connection->send({"HLEN", key}, [job, i, after](const RedisResult& r) {
            if (r.ok() && r.reply.isInteger() && job->observations[i].type == "hash")
                job->observations[i].elementCount = r.reply.integer;
            after();
        });
        connection->send({"HSCAN", key, "0", "COUNT", maxFields}, [job, i, after](const RedisResult& r) {
            KeyObservation& o = job->observations[i];
            if (r.ok() && r.reply.isArray() && r.reply.elements.size() == 2) {
                const QList<RedisReply>& flat = r.reply.elements[1].elements;
                for (qsizetype f = 0; f + 1 < flat.size() && o.fields.size() < job->settings.maxFields;
                     f += 2)
                    o.fields.append({flat[f].string, flat[f + 1].string});
            }
            after();
        });
        connection->send({"ZCARD", key}, [job, i, after](const RedisResult& r) {
            if (r.ok() && r.reply.isInteger() && job->observations[i].type == "zset")
                job->observations[i].elementCount = r.reply.integer;
            after();
        });
        connection->send(
            {"ZRANGE", key, "0", lastIndex, "WITHSCORES"}, [job, i, after](const RedisResult& r) {
                KeyObservation& o = job->observations[i];
                if (r.ok() && r.reply.isArray()) {
                    const QList<RedisReply>& flat = r.reply.elements;
                    for (qsizetype m = 0; m + 1 < flat.size() && o.members.size() < job->settings.maxFields;
                         m += 2)
                        o.members.append({flat[m].string, flat[m + 1].string.toDouble()});
                }
                after();
            });
    }
}

void ReadJob::onPttl(int i, const RedisResult& r)
{
    KeyObservation& o = observations[i];
    o.readAtMs = readAtMs;
    o.sentAtMs = sentAtMs;
    if (r.ok() && r.reply.isInteger()) {
        o.pttlMs = r.reply.integer;
        o.present = o.pttlMs != -2;
    } else {
        recordError(o, r, connection->name());
    }
}

void ReadJob::onGetRange(int i, const RedisResult& r)
{
    static const QByteArray stringType = "string";
    KeyObservation& o = observations[i];
    if (r.ok() && r.reply.isString()) {
        if (o.present) {
            o.type = stringType; // shared, not one allocation per key
            o.value = capped(r.reply.string, settings.maxValueBytes);
            if (o.value.size() >= settings.maxValueBytes)
                secondPhase << i; // maybe cut: the second phase learns STRLEN
        } else {
            o.pttlMs = -2;
        }
    } else if (isWrongType(r)) {
        secondPhase << i;
    } else {
        recordError(o, r, connection->name());
    }
    if (outstanding == 1)
        finishOne(connection, keys, shared_from_this());
    else
        --outstanding; // not the last: no need to take a reference to the job
}

void ReadJob::finishOne(RedisConnection* connection, const QByteArrayList& keys,
                        const std::shared_ptr<ReadJob>& self)
{
    if (--outstanding > 0)
        return;
    if (!secondPhase.isEmpty()) {
        readOthers(connection, keys, self);
        return;
    }
    for (KeyObservation& o : observations) {
        if (!o.present) {
            o.value.clear();
            o.fields.clear();
            o.members.clear();
            continue;
        }
        if (o.type == "string") {
            o.truncated = o.valueSize > o.value.size();
            o.valueSize = qMax<qint64>(o.valueSize, o.value.size());
            o.fields.clear();
            o.members.clear();
        } else {
            o.value.clear();
            o.valueSize = 0;
            if (o.type == "hash") {
                o.members.clear();
                o.truncated = o.elementCount > o.fields.size();
            } else if (o.type == "zset") {
                o.fields.clear();
                o.truncated = o.elementCount > o.members.size();
            } else {
                o.fields.clear();
                o.members.clear();
            }
        }
    }
    KeyReader::Done finished = std::move(done);
    finished(std::move(observations));
}

} // namespace

void KeyReader::read(RedisConnection* connection, const QByteArrayList& keys, const MonitorSettings& settings,
                     Done done)
{
    auto job = std::make_shared<ReadJob>();
    job->observations.resize(keys.size());
    job->done = std::move(done);
    job->settings = {settings.maxValueBytes, settings.maxFields};
    job->connection = connection;
    job->keys = keys;
    job->sentAtMs = monotonicMs();
    if (keys.isEmpty()) {
        job->done({});
        return;
    }
    job->outstanding = int(keys.size());
    const QByteArray lastByte = QByteArray::number(settings.maxValueBytes - 1);
    if (connection->isRouted()) {
        // A cluster entry: the keys may live on different nodes, so each command goes on its own,
        // routed by its key (the two of one key still reach the same node in order).
        for (qsizetype i = 0; i < keys.size(); ++i) {
            connection->send({"PTTL", keys.at(i)}, [job, i](const RedisResult& r) {
                job->readAtMs = monotonicMs();
                job->onPttl(int(i), r);
            });
            connection->send({"GETRANGE", keys.at(i), "0", lastByte},
                             [job, i](const RedisResult& r) { job->onGetRange(int(i), r); });
        }
        return;
    }
    // One batch for the whole first phase: one pending entry and one callback instead of two per key.
    RedisCommandBatch batch;
    qsizetype bytes = 0;
    for (const QByteArray& key : keys)
        bytes += 2 * key.size() + 64;
    batch.reserve(bytes);
    static const QByteArray pttl = RedisCommandBatch::encodeArguments({"PTTL"});
    static const QByteArray getRange = RedisCommandBatch::encodeArguments({"GETRANGE"});
    const QByteArray range = RedisCommandBatch::encodeArguments({"0", lastByte});
    for (const QByteArray& key : keys) {
        // PTTL first: if the key expires between the two reads, GETRANGE sees it gone, never the reverse.
        batch.addKeyed(2, pttl, key, {});
        batch.addKeyed(4, getRange, key, range);
    }
    connection->send(batch, nullptr, [job](const RedisError& error, QList<RedisReply>& replies) {
        // The replies of one batch arrive within moments of each other: one clock read serves them all.
        job->readAtMs = monotonicMs();
        for (qsizetype i = 0; i < job->keys.size(); ++i) {
            const RedisResult pttl{error, error.isError() ? RedisReply() : std::move(replies[2 * i])};
            job->onPttl(int(i), pttl);
            const RedisResult range{error, error.isError() ? RedisReply() : std::move(replies[2 * i + 1])};
            job->onGetRange(int(i), range);
        }
    });
}

} // namespace lockscope
