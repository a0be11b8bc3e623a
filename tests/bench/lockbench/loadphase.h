// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include <functional>
#include <utility>
#include <vector>

namespace lockscope {
class LockMonitor;
class MasterSet;
} // namespace lockscope

namespace lockbench {

// What a monitoring process spent while a RateWriter made its changes.
struct LoadFigures
{
    double cpuNs = 0;  // the monitoring process, the load writer's thread left out
    double wallNs = 0; // while the changes were written
    qint64 changes = 0;
    qint64 errors = 0;

    void add(const LoadFigures& o)
    {
        cpuNs += o.cpuNs;
        wallNs += o.wallNs;
        changes += o.changes;
        errors += o.errors;
    }
};

// The load the recorder and figures benchmarks measure a monitor under: the masters emptied, the
// monitor's first full scan, then --rate changes a second on the writer's thread while this thread
// runs its event loop. `writing` is called as the writing begins (what a benchmark counts only
// under load starts there); `tick` every 100 ms meanwhile.
LoadFigures runUnderLoad(lockscope::MasterSet& masters, lockscope::LockMonitor& monitor,
                         const std::vector<std::pair<QByteArray, int>>& targets, int rate, int seconds,
                         int resources, const std::function<void()>& writing = {},
                         const std::function<void()>& tick = {});

} // namespace lockbench
