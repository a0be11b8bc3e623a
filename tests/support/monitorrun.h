// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"

#include <memory>

namespace lockscope {
class LockMonitor;
class MasterSet;
} // namespace lockscope

namespace lockscope::test {

// A LockMonitor over a MasterSet of its own, as the monitor tests drive it: every change reported
// at once (no coalescing); startAndScan() opens the masters and starts it.
class MonitorRun
{
public:
    explicit MonitorRun(const LockScopeConfig& config);
    ~MonitorRun();
    MonitorRun(const MonitorRun&) = delete;
    MonitorRun& operator=(const MonitorRun&) = delete;

    // Opens the masters, starts the monitor and waits up to `timeoutMs` for its initial scan: true
    // once it finished.
    bool startAndScan(int timeoutMs);
    MasterSet& masters() { return *m_masters; }
    LockMonitor& monitor() { return *m_monitor; }

private:
    std::unique_ptr<MasterSet> m_masters;
    std::unique_ptr<LockMonitor> m_monitor; // declared after the masters it watches
};

} // namespace lockscope::test
