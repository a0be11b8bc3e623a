// SPDX-License-Identifier: Apache-2.0
#include "support/quickconfig.h"

#include "support/redisservergroup.h"
#include "support/timebound.h"

namespace lockscope::test {

LockScopeConfig quickConfig(const QList<ConnectionOptions>& masters)
{
    LockScopeConfig config;
    config.masters = masters;
    for (ConnectionOptions& m : config.masters) {
        m.healthIntervalMs = 100;
        m.reconnectInitialMs = 50;
        m.reconnectMaxMs = 200;
    }
    config.monitor.pollIntervalMs = 200;
    config.redlock.masterTimeoutMs = int(upperBoundMs(config.redlock.masterTimeoutMs));
    return config;
}

LockScopeConfig quickConfig(const RedisServerGroup& group, int timeoutMs)
{
    return quickConfig(group.connectionOptions(timeoutMs));
}

LockScopeConfig pollingConfig(int pollIntervalMs, int timeoutMs)
{
    LockScopeConfig config;
    config.monitor.pollIntervalMs = pollIntervalMs;
    config.timeoutMs = timeoutMs;
    return config;
}

} // namespace lockscope::test
