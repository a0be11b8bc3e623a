// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "bench/lockbench/loadphase.h"
#include "bench/lockbench/ratewriter.h"
#include "metrics/lockactivity.h"
#include "metrics/metricsrenderer.h"
#include "monitor/lockmonitor.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace lockscope;

namespace lockbench {

namespace {

struct Phase
{
    LoadFigures load;
    // LockActivity's slots, timed around each call on the monotonic clock (a vDSO read: on this VM a
    // thread-CPU reading is a system call of 1.4 µs, more than most slots), its own cost taken off.
    // An upper bound of their CPU: a slot preempted meanwhile counts the time it waited.
    double slotsCpuNs = 0;
    double scrapeCpuNs = 0; // the scrapes: what serve gathers and renders once a second
    qint64 timedCalls = 0;  // slot calls timed (each costs one pair of clock readings)
    int scrapes = 0;
    quint64 acquisitions = 0; // LockActivity's count: proof that it saw the changes
};

// What one pair of monotonic clock readings costs: the timing around every slot call adds it.
double clockPairNs()
{
    constexpr int pairs = 1000000;
    const qint64 start = monotonicNs();
    qint64 sink = 0;
    for (int i = 0; i < pairs; ++i)
        sink += monotonicNs() - monotonicNs();
    const qint64 spent = monotonicNs() - start;
    return sink == 1 ? 0 : double(spent) / pairs; // `sink` keeps the loop from being removed
}

// Times every call of LockActivity's slots on `signal`: one lambda connected before LockActivity, one
// after, as Qt calls the slots of a direct connection in the order they were connected.
struct SlotTimer
{
    qint64 startNs = 0;
    template <typename Signal> void openBefore(LockMonitor* monitor, Signal signal)
    {
        QObject::connect(monitor, signal, [this] { startNs = monotonicNs(); });
    }
    template <typename Signal> void closeAfter(LockMonitor* monitor, Signal signal, Phase& out)
    {
        QObject::connect(monitor, signal, [this, &out] {
            out.slotsCpuNs += double(monotonicNs() - startNs);
            ++out.timedCalls;
        });
    }
};

// One monitoring process's life as `lockctl serve` runs it (every change, no coalescing) while the
// writer makes --rate changes per second: the monitor alone, or with the live figures (LockActivity:
// the counters, the ages and the families' hold times, endings and headroom) and a scrape a second.
Phase runPhase(const LockScopeConfig& config, const std::vector<std::pair<QByteArray, int>>& targets,
               int rate, int seconds, int resources, bool withFigures, double pairNs)
{
    Phase out;
    MasterSet masters(config.masters);
    LockMonitor monitor(&masters, config);
    monitor.setCoalesceMs(0);
    std::unique_ptr<LockActivity> activity;
    SlotTimer timer;
    QTimer scrape;
    if (withFigures) {
        timer.openBefore(&monitor, &LockMonitor::locksChanged);
        timer.openBefore(&monitor, &LockMonitor::keyspaceEvent);
        activity = std::make_unique<LockActivity>(&monitor);
        timer.closeAfter(&monitor, &LockMonitor::locksChanged, out);
        timer.closeAfter(&monitor, &LockMonitor::keyspaceEvent, out);
        QObject::connect(&scrape, &QTimer::timeout, [&] {
            const qint64 start = threadCpuNs();
            const QByteArray page = MetricsRenderer::render(activity->input(monotonicMs()));
            out.scrapeCpuNs += double(threadCpuNs() - start);
            out.scrapes += page.isEmpty() ? 0 : 1;
        });
    }
    // Only the slots under load count: the first scan's are left out.
    out.load = runUnderLoad(masters, monitor, targets, rate, seconds, resources, [&] {
        out.slotsCpuNs = 0;
        out.timedCalls = 0;
        if (withFigures)
            scrape.start(1000);
    });
    out.slotsCpuNs = std::max(0.0, out.slotsCpuNs - double(out.timedCalls) * pairNs);
    if (activity)
        out.acquisitions = activity->acquisitions();
    return out;
}

} // namespace

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

QJsonArray rounded(const std::vector<double>& v)
{
    QJsonArray out;
    for (const double x : v)
        out << qRound(x * 10) / 10.0;
    return out;
}

// `lockbench figures`: what serve's live figures (issue #44) cost the monitoring process at the
// recorder benchmark's load. Rounds of two phases on the same servers (the order alternating), each
// a fresh monitor reading every change: alone (the baseline) and with LockActivity and a scrape a
// second. Prints the CPU of each per round and their medians (the load writer's thread left out),
// and the figures' own CPU: their slots timed around each call and the scrapes, against the
// baseline's. As with the recorder, the difference of two runs swings by more than the figure on a
// busy machine; the own CPU does not. Fails (exit 1) when that own CPU is more than
// --max-added-cpu-percent (5) of the baseline's, the figures saw no acquisition, or a write failed.
int runFigures(const QStringList& argv)
{
    const BenchArgs args(argv);
    const int rate = int(args.number(QStringLiteral("--rate"), 5000));
    const int seconds = int(args.number(QStringLiteral("--seconds"), 10));
    const int rounds = int(args.number(QStringLiteral("--rounds"), 3));
    const int resources = int(args.number(QStringLiteral("--resources"), 20000));
    const double maxAdded =
        args.value(QStringLiteral("--max-added-cpu-percent"), QStringLiteral("5")).toDouble();
    LockScopeConfig config;
    std::vector<std::pair<QByteArray, int>> targets;
    if (!RateWriter::mastersFrom(argv, &config, &targets))
        return 2;
    const double pairNs = clockPairNs();
    std::vector<double> baseRuns;
    std::vector<double> figureRuns;
    std::vector<double> ownRuns; // the figures' own CPU, percent of that round's baseline
    Phase base;
    Phase fig;
    for (int round = 0; round < rounds; ++round) {
        double roundBase = 0;
        double roundOwn = 0;
        for (const bool withFigures : {round % 2 == 1, round % 2 == 0}) {
            const Phase p = runPhase(config, targets, rate, seconds, resources, withFigures, pairNs);
            const double cpu = 100.0 * p.load.cpuNs / p.load.wallNs;
            (withFigures ? figureRuns : baseRuns).push_back(cpu);
            if (withFigures)
                roundOwn = 100.0 * (p.slotsCpuNs + p.scrapeCpuNs) / p.load.wallNs;
            else
                roundBase = cpu;
            Phase& sum = withFigures ? fig : base;
            sum.load.add(p.load);
            sum.slotsCpuNs += p.slotsCpuNs;
            sum.scrapeCpuNs += p.scrapeCpuNs;
            sum.timedCalls += p.timedCalls;
            sum.scrapes += p.scrapes;
            sum.acquisitions += p.acquisitions;
        }
        ownRuns.push_back(roundBase > 0 ? 100.0 * roundOwn / roundBase : 0);
    }
    const double baseCpu = median(baseRuns);
    const double figCpu = median(figureRuns);
    const double slotsCpu = 100.0 * fig.slotsCpuNs / fig.load.wallNs;
    const double scrapeCpu = 100.0 * fig.scrapeCpuNs / fig.load.wallNs;
    const double ownShare = baseCpu > 0 ? 100.0 * (slotsCpu + scrapeCpu) / baseCpu : 0;
    const bool ok =
        base.load.errors == 0 && fig.load.errors == 0 && fig.acquisitions > 0 && ownShare <= maxAdded;
    QJsonObject out{
        {QStringLiteral("bench"), QStringLiteral("figures")},
        {QStringLiteral("masters"), int(config.masters.size())},
        {QStringLiteral("changesPerSec"), rate},
        {QStringLiteral("seconds"), seconds},
        {QStringLiteral("rounds"), rounds},
        {QStringLiteral("changesWritten"), base.load.changes + fig.load.changes},
        {QStringLiteral("writeErrors"), base.load.errors + fig.load.errors},
        {QStringLiteral("acquisitionsCounted"), qint64(fig.acquisitions)},
        {QStringLiteral("baselineCpuPercent"), baseCpu},
        {QStringLiteral("figuresCpuPercent"), figCpu},
        {QStringLiteral("baselineRuns"), rounded(baseRuns)},
        {QStringLiteral("figuresRuns"), rounded(figureRuns)},
        {QStringLiteral("addedCpuPercent"), baseCpu > 0 ? 100.0 * (figCpu - baseCpu) / baseCpu : 0},
        // Timed where the figures run: LockActivity's slots, the scrapes, and both against the
        // baseline (per round, and over all rounds).
        {QStringLiteral("slotsCpuPercent"), slotsCpu},
        {QStringLiteral("scrapeCpuPercent"), scrapeCpu},
        {QStringLiteral("ownCpuOfBaselinePercent"), ownShare},
        {QStringLiteral("ownCpuOfBaselineRuns"), rounded(ownRuns)},
        {QStringLiteral("maxAddedCpuPercent"), maxAdded},
        {QStringLiteral("timedCalls"), fig.timedCalls},
        {QStringLiteral("clockPairNs"), qRound(pairNs * 10) / 10.0},
        {QStringLiteral("scrapes"), fig.scrapes}};
    if (!ok)
        out.insert(QStringLiteral("error"),
                   ownShare > maxAdded
                       ? QStringLiteral("the live figures added %1 % CPU (at most %2 % allowed)")
                             .arg(ownShare, 0, 'f', 1)
                             .arg(maxAdded)
                       : QStringLiteral("writes failed or the figures saw no acquisition"));
    return Benchmark::printLine(out, ok);
}

const Benchmark::Registration registration(
    "figures", "-m URL... [--rate N] [--seconds S] [--rounds R] [--resources R] [--max-added-cpu-percent P]",
    runFigures);

} // namespace

} // namespace lockbench
