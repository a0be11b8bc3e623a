// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "bench/lockbench/ratewriter.h"
#include "monitor/lockmonitor.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <thread>

using namespace lockscope;

namespace lockbench {

namespace {

using Write = RateWriter::Write;

// When the view first showed a value: the value's write time and the arrival, per master and key.
struct Arrival
{
    qint64 valueNs = 0;
    qint64 arrivalNs = 0;
};

// Every write's latency to the view, or -1 when it never got there. A change that a newer one on the
// same key and master overwrote before the monitor read it reached the view with that newer value:
// it counts at the time that one arrived (its real latency), not as missed and not as instant.
std::vector<qint64> latenciesOf(const std::vector<Write>& writes,
                                QHash<QPair<int, int>, std::vector<Arrival>>& arrivals)
{
    // Per (master, key): arrivals sorted by value time, with the earliest arrival of any value at or
    // after each one.
    QHash<QPair<int, int>, std::vector<qint64>> earliestFrom;
    for (auto it = arrivals.begin(); it != arrivals.end(); ++it) {
        std::vector<Arrival>& list = it.value();
        std::sort(list.begin(), list.end(),
                  [](const Arrival& a, const Arrival& b) { return a.valueNs < b.valueNs; });
        std::vector<qint64> suffix(list.size());
        qint64 best = std::numeric_limits<qint64>::max();
        for (size_t i = list.size(); i-- > 0;)
            suffix[i] = best = std::min(best, list[i].arrivalNs);
        earliestFrom.insert(it.key(), std::move(suffix));
    }
    std::vector<qint64> out;
    out.reserve(writes.size());
    for (const Write& w : writes) {
        const auto at = arrivals.constFind({w.master, w.key});
        if (at == arrivals.cend()) {
            out.push_back(-1);
            continue;
        }
        const std::vector<Arrival>& list = at.value();
        const auto first = std::lower_bound(list.begin(), list.end(), w.ns,
                                            [](const Arrival& a, qint64 ns) { return a.valueNs < ns; });
        out.push_back(first == list.end()
                          ? -1
                          : (earliestFrom.value({w.master, w.key})[size_t(first - list.begin())] - w.ns) /
                                1000);
    }
    return out;
}

// `lockbench event-latency`: with keyspace notifications on, a writer thread sets locks on the
// masters at --rate changes per second (values carry the monotonic time they were sent); the
// monitor's batches say when each one reached the view. After the writer stops, the view gets up to
// --drain-ms to catch up (what arrives then counts at its real latency). Prints p50/p99/max of the
// delay and the changes that never reached the view; more of those than --max-missed-percent (0.1)
// of the changes written, or any write error, fails the run (exit 1).
int runEventLatency(const QStringList& argv)
{
    const BenchArgs args(argv);
    const int rate = int(args.number(QStringLiteral("--rate"), 5000));
    const int seconds = int(args.number(QStringLiteral("--seconds"), 5));
    const int resources = int(args.number(QStringLiteral("--resources"), 20000));
    const int drainMs = int(args.number(QStringLiteral("--drain-ms"), 5000));
    const double maxMissedPercent =
        args.value(QStringLiteral("--max-missed-percent"), QStringLiteral("0.1")).toDouble();
    LockScopeConfig config;
    std::vector<std::pair<QByteArray, int>> targets;
    if (!RateWriter::mastersFrom(argv, &config, &targets))
        return 2;
    RateWriter::flushAll(targets); // values from an earlier run would count as (very late) arrivals
    MasterSet masters(config.masters);
    LockMonitor monitor(&masters, config);
    masters.open();
    monitor.start();

    QHash<QPair<int, int>, std::vector<Arrival>> arrivals;
    QSet<QByteArray> counted;
    QObject::connect(&monitor, &LockMonitor::locksChanged, [&](const LockBatch& batch) {
        const qint64 now = monotonicNs();
        auto collect = [&](const LockView& v) {
            const int key = v.resource.mid(6).toInt(); // "bench:<n>"
            for (int master = 0; master < v.observations.size(); ++master) {
                const MasterObservation& m = v.observations.at(master);
                if (m.present() && m.value().startsWith("t") && !counted.contains(m.value())) {
                    // Each value counts once: in the first batch that carries it.
                    counted.insert(m.value());
                    arrivals[{master, key}].push_back({m.value().mid(1).toLongLong(), now});
                }
            }
        };
        for (const LockView& v : batch.added)
            collect(v);
        for (const LockView& v : batch.changed)
            collect(v);
    });

    std::atomic<bool> stop{false};
    std::atomic<bool> writerDone{false};
    RateWriter rateWriter(targets, rate, seconds,
                          resources); // the writer's until writerDone, then this thread's
    std::thread writer;
    QObject::connect(&monitor, &LockMonitor::initialScanFinished, [&] {
        writer = std::thread([&] {
            rateWriter.run(stop);
            writerDone = true;
        });
    });
    // Once the writer is done: wait until every change reached the view, or the drain time is up.
    qint64 drainUntilNs = 0;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, [&] {
        if (!writerDone)
            return;
        if (drainUntilNs == 0) {
            writer.join();
            drainUntilNs = monotonicNs() + qint64(drainMs) * 1000000;
        }
        const std::vector<qint64> l = latenciesOf(rateWriter.writes(), arrivals);
        if (monotonicNs() > drainUntilNs || std::count(l.begin(), l.end(), qint64(-1)) == 0)
            QCoreApplication::quit();
    });
    check.start(50);
    QCoreApplication::exec();
    stop = true;
    if (writer.joinable())
        writer.join();

    const std::vector<Write>& writes = rateWriter.writes();
    std::vector<qint64> latenciesUs = latenciesOf(writes, arrivals);
    const qint64 missed = std::count(latenciesUs.begin(), latenciesUs.end(), qint64(-1));
    latenciesUs.erase(std::remove(latenciesUs.begin(), latenciesUs.end(), qint64(-1)), latenciesUs.end());
    std::sort(latenciesUs.begin(), latenciesUs.end());
    auto pct = [&](double p) {
        return latenciesUs.empty() ? -1.0
                                   : double(latenciesUs[std::min(latenciesUs.size() - 1,
                                                                 size_t(p * double(latenciesUs.size())))]) /
                                         1000.0;
    };
    const double missedPercent = writes.empty() ? 100.0 : 100.0 * double(missed) / double(writes.size());
    const bool ok = !writes.empty() && rateWriter.errors() == 0 && missedPercent <= maxMissedPercent;
    QJsonObject out{{QStringLiteral("bench"), QStringLiteral("event-latency")},
                    {QStringLiteral("changesPerSec"), rate},
                    {QStringLiteral("changesWritten"), rateWriter.written()},
                    {QStringLiteral("writeErrors"), rateWriter.errors()},
                    {QStringLiteral("changesSeen"), qint64(latenciesUs.size())},
                    {QStringLiteral("changesMissed"), missed},
                    {QStringLiteral("missedPercent"), missedPercent},
                    {QStringLiteral("maxMissedPercent"), maxMissedPercent},
                    {QStringLiteral("p50Ms"), pct(0.50)},
                    {QStringLiteral("p99Ms"), pct(0.99)},
                    {QStringLiteral("maxMs"), pct(1.0)}};
    if (!ok)
        out.insert(
            QStringLiteral("error"),
            rateWriter.errors() > 0
                ? QStringLiteral("%1 writes failed").arg(rateWriter.errors())
                : QStringLiteral("%1 of %2 changes never reached the view (%3 %, at most %4 % allowed)")
                      .arg(missed)
                      .arg(writes.size())
                      .arg(missedPercent)
                      .arg(maxMissedPercent));
    return Benchmark::printLine(out, ok);
}

const Benchmark::Registration registration(
    "event-latency",
    "-m URL... [--rate N] [--seconds S] [--resources R] [--drain-ms MS] [--max-missed-percent P]",
    runEventLatency);

} // namespace

} // namespace lockbench
