// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/comparedelete.h"

#include <QByteArray>
#include <QString>

namespace lockscope {

// What we know about a master beyond up/down; filled by the connection's handshake and pings.
struct MasterHealth
{
    double latencyMs = -1;    // last PING round trip; -1 before the first one
    QString version;          // the server's own version: valkey_version on Valkey, else redis_version
    QString server;           // its own name, lower case: INFO's server_name ("valkey"), else "redis"
    QString redisVersion;     // redis_version: the Redis version it is compatible with
    QString role;             // master / slave
    QByteArray runId;         // changes when the server process restarts
    qint64 clockOffsetMs = 0; // server TIME minus our wall clock, at the midpoint of the round trip
    bool clockOffsetKnown = false;
    // How a token-guarded release is sent there (COMMAND INFO, at every connect).
    CompareDelete compareDelete = CompareDelete::Script;

    bool operator==(const MasterHealth&) const = default;

    // "Valkey 8.0.1", "Redis 7.0.15": the server as it names itself; empty before INFO answered.
    QString displayVersion() const
    {
        if (version.isEmpty())
            return {};
        const QString name = server.isEmpty() || server == QLatin1String("redis")
                                 ? QStringLiteral("Redis")
                                 : QString(server.left(1).toUpper() + server.mid(1));
        return name + QLatin1Char(' ') + version;
    }
};

} // namespace lockscope
