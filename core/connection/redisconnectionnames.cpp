// SPDX-License-Identifier: Apache-2.0
// RedisConnection's names for people: of a connection's master and of its states (kept apart from
// the connection's machinery in redisconnection.cpp).
#include "connection/redisconnection.h"

namespace lockscope {

QString RedisConnection::nameOf(const ConnectionOptions& options)
{
    // A Sentinel entry is known by its group, whichever node is its primary at the moment.
    return options.topology ? options.topology->toString() : options.url.toString();
}

QString RedisConnection::stateName(State state)
{
    switch (state) {
    case State::Disconnected:
        return QStringLiteral("disconnected");
    case State::Connecting:
        return QStringLiteral("connecting");
    case State::Up:
        return QStringLiteral("up");
    case State::Down:
        return QStringLiteral("down");
    case State::Reconnecting:
        return QStringLiteral("reconnecting");
    }
    return {};
}

} // namespace lockscope
