// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/loadphase.h"

#include "base/eventwait.h"
#include "base/monotonicclock.h"
#include "bench/lockbench/ratewriter.h"
#include "monitor/lockmonitor.h"
#include "topology/masterset.h"

#include <QElapsedTimer>
#include <QTimer>

#include <atomic>
#include <thread>

using namespace lockscope;

namespace lockbench {

LoadFigures runUnderLoad(MasterSet& masters, LockMonitor& monitor,
                         const std::vector<std::pair<QByteArray, int>>& targets, int rate, int seconds,
                         int resources, const std::function<void()>& writing,
                         const std::function<void()>& tick)
{
    RateWriter::flushAll(targets);
    bool scanned = false;
    QObject::connect(&monitor, &LockMonitor::initialScanFinished, [&] { scanned = true; });
    masters.open();
    monitor.start();
    runEventsUntil([&] { return scanned; }, 30000);

    RateWriter writer(targets, rate, seconds, resources);
    std::atomic<bool> stop{false};
    std::atomic<bool> done{false};
    if (writing)
        writing();
    LoadFigures out;
    const qint64 cpuStart = processCpuNs();
    QElapsedTimer wall;
    wall.start();
    std::thread thread([&] {
        writer.run(stop);
        done = true;
    });
    QTimer wake; // also looks at `done`, which the writer's thread sets
    QObject::connect(&wake, &QTimer::timeout, [&] {
        if (tick)
            tick();
    });
    wake.start(100);
    runEventsUntil([&] { return done.load(); }, (seconds + 60) * 1000);
    stop = true;
    thread.join();
    out.wallNs = double(wall.nsecsElapsed());
    out.cpuNs = double(processCpuNs() - cpuStart - writer.cpuNs());
    out.changes = writer.written();
    out.errors = writer.errors();
    return out;
}

} // namespace lockbench
