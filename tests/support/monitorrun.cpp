// SPDX-License-Identifier: Apache-2.0
#include "support/monitorrun.h"

#include "monitor/lockmonitor.h"
#include "support/timebound.h"
#include "topology/masterset.h"

#include <QSignalSpy>

namespace lockscope::test {

MonitorRun::MonitorRun(const LockScopeConfig& config)
    : m_masters(std::make_unique<MasterSet>(config.masters)),
      m_monitor(std::make_unique<LockMonitor>(m_masters.get(), config))
{
    m_monitor->setCoalesceMs(0);
}

MonitorRun::~MonitorRun() = default;

bool MonitorRun::startAndScan(int timeoutMs)
{
    timeoutMs = int(upperBoundMs(timeoutMs)); // an upper bound (timebound.h)
    QSignalSpy initial(m_monitor.get(), &LockMonitor::initialScanFinished);
    m_masters->open();
    m_monitor->start();
    return initial.wait(timeoutMs) || m_monitor->isInitialScanDone();
}

} // namespace lockscope::test
