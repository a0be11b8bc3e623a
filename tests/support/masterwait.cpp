// SPDX-License-Identifier: Apache-2.0
#include "support/masterwait.h"

#include "support/redisserver.h"

#include <QTest>

namespace lockscope::test {

namespace {

// The value of `field` in an INFO line `prefix...field=N,...`, or -1.
qint64 infoField(const QByteArray& info, const QByteArray& prefix, const QByteArray& field)
{
    for (const QByteArray& line : info.split('\n')) {
        if (!line.startsWith(prefix))
            continue;
        for (const QByteArray& pair : line.mid(prefix.size()).trimmed().split(',')) {
            const QByteArrayList kv = pair.split('=');
            if (kv.size() == 2 && kv[0] == field)
                return kv[1].toLongLong();
        }
        return -1;
    }
    return -1;
}

} // namespace

qint64 succeededCalls(const RedisServer& server, const QByteArray& command)
{
    const RedisReply info = server.command({"INFO", "commandstats"});
    if (info.type != RedisReply::Type::String && info.type != RedisReply::Type::Status)
        return -1;
    const QByteArray prefix = "cmdstat_" + command.toLower() + ':';
    const qint64 calls = infoField(info.string, prefix, "calls");
    if (calls < 0)
        return 0;
    return calls - qMax<qint64>(0, infoField(info.string, prefix, "failed_calls"));
}

qint64 succeededScripts(const RedisServer& server)
{
    const qint64 eval = succeededCalls(server, "eval");
    const qint64 evalsha = succeededCalls(server, "evalsha");
    return eval < 0 || evalsha < 0 ? -1 : eval + evalsha;
}

qint64 connectedClients(const RedisServer& server)
{
    const RedisReply info = server.command({"INFO", "clients"});
    const qsizetype at = info.string.indexOf("connected_clients:");
    if (at < 0)
        return -1;
    return info.string.mid(at + 18, info.string.indexOf('\r', at) - at - 18).toLongLong();
}

bool waitForClientsGone(const RedisServer& server, qint64 baseline, int timeoutMs)
{
    return QTest::qWaitFor(
        [&] {
            const qint64 now = connectedClients(server);
            return now >= 0 && now <= baseline;
        },
        timeoutMs);
}

} // namespace lockscope::test
