// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisconnection.h"

#include <QPointer>

namespace lockscope {

// Lets go of a short-lived connection that topology code opened to ask one node (CLUSTER SHARDS, a
// sentinel's SENTINEL GET-MASTER-ADDR-BY-NAME): closed, so that its pending commands fail now; no
// longer heard by `owner`; deleted once control is back in the event loop, since this may run inside
// one of its own callbacks. Null afterwards; nothing happens when it already is.
inline void dropProbeConnection(QPointer<RedisConnection>& connection, QObject* owner)
{
    if (!connection)
        return;
    connection->disconnect(owner);
    connection->close();
    connection->deleteLater();
    connection = nullptr;
}

} // namespace lockscope
