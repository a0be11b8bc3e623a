// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "monitor/lockmonitor.h"
#include "support/redisservergroup.h"
#include "topology/masterset.h"

#include <memory>

namespace lockscope::test {

// A monitor over real masters, with the config tests want: fast polling, quick timeouts.
struct MonitorHarness
{
    explicit MonitorHarness(RedisServerGroup& group, int pollMs = 200, int timeoutMs = 500);

    // True once the initial scan finished within `timeoutMs`.
    bool waitForInitialScan(int timeoutMs);
    // True once every master's scanner follows keyspace events, within `timeoutMs`.
    bool waitForLive(int timeoutMs = 5000);
    LockView view(const QByteArray& resource) const { return monitor->locks().value(resource); }
    bool has(const QByteArray& resource) const { return monitor->locks().contains(resource); }
    LockStatus status(const QByteArray& resource) const { return view(resource).status; }

    LockScopeConfig config;
    std::unique_ptr<MasterSet> masters;
    std::unique_ptr<LockMonitor> monitor;
};

// `count` masters with keyspace events, and a monitor past its initial scan that follows them (its
// polling would take a minute: only events can make a test pass). False (see the group's
// errorString) if that did not come about.
bool startLive(RedisServerGroup& group, int count, std::unique_ptr<MonitorHarness>* harness);

} // namespace lockscope::test
