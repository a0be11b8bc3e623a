// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisurl.h"
#include "connection/replylimits.h"
#include "connection/tlsoptions.h"
#include "connection/topologyurl.h"

#include <QByteArray>

#include <optional>

namespace lockscope {

struct ConnectionOptions
{
    RedisUrl url;
    TlsOptions tls;
    int commandTimeoutMs = 2000;  // a command unanswered this long marks the master down
    int connectTimeoutMs = 2000;  // TCP + TLS + handshake
    int healthIntervalMs = 1000;  // PING for latency; 0 disables
    int reconnectInitialMs = 100; // back-off doubles from here ...
    int reconnectMaxMs = 5000;    // ... up to here, with +-25 % jitter
    bool autoReconnect = true;
    ReplyLimits replyLimits; // a reply beyond these fails the master (ErrorKind::ReplyTooLarge)
    QByteArray clientName = "lockscope";
    // Set for a master entry that names a Sentinel group. `url` is then the group's current primary
    // (left empty until the sentinels named one), while the entry keeps the group's name everywhere.
    std::optional<TopologyUrl> topology;

    // Whether a connection made with these would reach the same server the same way as one made with
    // `o` (its health checks, name and topology aside).
    bool sameEndpoint(const ConnectionOptions& o) const
    {
        return url == o.url && tls == o.tls && commandTimeoutMs == o.commandTimeoutMs &&
               connectTimeoutMs == o.connectTimeoutMs && reconnectInitialMs == o.reconnectInitialMs &&
               reconnectMaxMs == o.reconnectMaxMs && autoReconnect == o.autoReconnect &&
               replyLimits == o.replyLimits;
    }
};

} // namespace lockscope
