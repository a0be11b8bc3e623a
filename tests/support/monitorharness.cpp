// SPDX-License-Identifier: Apache-2.0
#include "support/monitorharness.h"

#include "discovery/entryscanner.h"
#include "support/timebound.h"

#include <QSignalSpy>
#include <QTest>

namespace lockscope::test {

MonitorHarness::MonitorHarness(RedisServerGroup& group, int pollMs, int timeoutMs)
{
    config.masters = group.connectionOptions(timeoutMs);
    for (ConnectionOptions& m : config.masters) {
        m.reconnectInitialMs = 50;
        m.reconnectMaxMs = 200;
        m.healthIntervalMs = 100;
    }
    config.monitor.pollIntervalMs = pollMs;
    config.monitor.reconcileIntervalMs = 2000;
    masters = std::make_unique<MasterSet>(config.masters);
    monitor = std::make_unique<LockMonitor>(masters.get(), config);
    monitor->setCoalesceMs(0);
    masters->open();
    monitor->start();
}

bool MonitorHarness::waitForInitialScan(int timeoutMs)
{
    QSignalSpy initial(monitor.get(), &LockMonitor::initialScanFinished);
    return initial.wait(int(upperBoundMs(timeoutMs)));
}

bool MonitorHarness::waitForLive(int timeoutMs)
{
    return QTest::qWaitFor(
        [this] {
            for (int i = 0; i < masters->size(); ++i)
                if (monitor->scanner(i)->mode() != NotificationMode::Live)
                    return false;
            return true;
        },
        int(upperBoundMs(timeoutMs)));
}

bool startLive(RedisServerGroup& group, int count, std::unique_ptr<MonitorHarness>* harness)
{
    RedisServerOptions o;
    o.notifications = true;
    if (!group.start(count, o))
        return false;
    *harness = std::make_unique<MonitorHarness>(group, 60000);
    return (*harness)->waitForInitialScan(5000) && (*harness)->waitForLive();
}

} // namespace lockscope::test
