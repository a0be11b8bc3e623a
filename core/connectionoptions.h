#pragma once

#include "redisurl.h"
#include "tlsoptions.h"

#include <QByteArray>

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
    QByteArray clientName = "lockscope";
};

} // namespace lockscope
