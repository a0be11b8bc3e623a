// SPDX-License-Identifier: Apache-2.0
#include "support/pollingmasters.h"

#include "support/redisservergroup.h"

namespace lockscope::test {

bool startPollingMasters(RedisServerGroup& group, int count, LockScopeConfig& config, int timeoutMs)
{
    if (!group.start(count))
        return false;
    for (int i = 0; i < count; ++i)
        group.at(i).command({"CONFIG", "SET", "notify-keyspace-events", ""});
    config.masters = group.connectionOptions(timeoutMs);
    return true;
}

QByteArray notifyFlags(const RedisServer& server)
{
    const auto reply = server.command({"CONFIG", "GET", "notify-keyspace-events"});
    return reply.elements.size() == 2 ? reply.elements.at(1).string : QByteArray();
}

} // namespace lockscope::test
