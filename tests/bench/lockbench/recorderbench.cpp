// SPDX-License-Identifier: Apache-2.0
#include "base/eventwait.h"
#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "bench/lockbench/loadphase.h"
#include "bench/lockbench/ratewriter.h"
#include "bench/lockbench/watchprobe.h"
#include "monitor/lockmonitor.h"
#include "record/recorder.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

using namespace lockscope;

namespace lockbench {

namespace {

struct Phase
{
    LoadFigures load;
    qint64 events = 0;      // recorded
    qint64 maxBacklog = 0;  // events observed, not yet committed, sampled every 100 ms
    qint64 endBacklog = 0;  // when the writer stopped
    qint64 bytes = 0;       // the file (and its WAL) once the recorder has closed it
    double ownCpuNs = 0;    // measured inside the recorder (its slots and its writer thread)
    double writerCpuNs = 0; // of which the writer thread's
    // With --watch: the live detection of two holders at once following the recorder (its thread).
    double watchCpuNs = 0;        // while the changes were written
    double watchDrainCpuNs = 0;   // after, judging what was left
    qint64 watchPendingAtEnd = 0; // suspects waiting when the recorder had committed everything
    qint64 watchDrainMs = -1;     // how long it then took to judge them all (-1: not within 30 s)
    qint64 watchUnchecked = 0;    // dropped from a full queue
    qint64 watchReads = 0;        // stories it read back from the file (the rest it followed)
    qint64 incidents = 0;
};

// One monitoring process's life: a LockMonitor as `lockctl record` runs it (no coalescing), with a
// Recorder when `db` is set, while the writer makes --rate changes per second.
Phase runPhase(const LockScopeConfig& config, const std::vector<std::pair<QByteArray, int>>& targets,
               int rate, int seconds, int resources, const QString& db, bool watch)
{
    Phase out;
    MasterSet masters(config.masters);
    LockMonitor monitor(&masters, config);
    monitor.setCoalesceMs(0);
    std::unique_ptr<Recorder> recorder;
    if (!db.isEmpty()) {
        RecorderOptions options;
        options.path = db;
        recorder = std::make_unique<Recorder>(options);
        recorder->attach(&monitor);
    }
    std::unique_ptr<WatchProbe> probe;
    if (recorder && watch)
        probe = std::make_unique<WatchProbe>(db, recorder->writer());
    out.load = runUnderLoad(masters, monitor, targets, rate, seconds, resources, {}, [&] {
        if (recorder)
            out.maxBacklog = qMax(out.maxBacklog, recorder->backlog());
    });
    if (probe)
        out.watchCpuNs = double(probe->cpuNs());
    if (recorder) {
        out.endBacklog = recorder->backlog();
        runEventsUntil([&] { return recorder->backlog() == 0; }, 30000);
        out.events = recorder->written();
        if (probe) {
            runEventsUntil([] { return false; }, 1500); // the last commit reaches the watch
            QElapsedTimer drain;
            drain.start();
            out.watchPendingAtEnd = probe->pending();
            if (runEventsUntil([&] { return probe->pending() == 0; }, 30000))
                out.watchDrainMs = drain.elapsed();
            out.watchDrainCpuNs = double(probe->cpuNs()) - out.watchCpuNs;
            out.watchUnchecked = probe->unchecked();
            out.watchReads = probe->reads();
            out.incidents = probe->incidents();
            probe.reset();
        }
        const std::shared_ptr<const RecordingSink::Counters> counters = recorder->counters();
        recorder.reset(); // the session ends, the WAL is checkpointed into the file
        // With the backlog the changes left and the session's end (the latest events it stores).
        out.ownCpuNs = double(counters->observeCpuNs + counters->writeCpuNs);
        out.writerCpuNs = double(counters->writeCpuNs);
        out.bytes = QFileInfo(db).size() + QFileInfo(db + QStringLiteral("-wal")).size();
    }
    return out;
}

// `lockbench recorder`: the flight recorder's cost. Rounds of two phases on the same servers (the
// order alternating), each a fresh monitoring process's monitor at --rate changes per second:
// without the recorder (the baseline) and with it. Prints the CPU of each (the load writer's thread
// left out), the CPU the recorder adds, its largest backlog and the one left when the changes
// stopped, and the bytes the file grows by per recorded event. The recorder's own CPU is also timed
// where it runs (its slots, its writer thread): on a loaded machine the difference of two runs swings
// by tens of percent either way, that figure does not. Fails (exit 1) when that own CPU is more than
// --max-added-cpu-percent (10) of the baseline's, its backlog at the end exceeds a second of
// changes (it did not keep up), or a write failed.
int runRecorder(const QStringList& argv)
{
    const BenchArgs args(argv);
    const int rate = int(args.number(QStringLiteral("--rate"), 5000));
    const int seconds = int(args.number(QStringLiteral("--seconds"), 10));
    const int rounds = int(args.number(QStringLiteral("--rounds"), 1));
    const int resources = int(args.number(QStringLiteral("--resources"), 20000));
    const bool watch = args.flag(QStringLiteral("--watch"));
    // A team database to record into (password: PGPASSWORD) instead of a file of the run's own.
    const QString teamDb = args.value(QStringLiteral("--db"));
    const double maxAdded =
        args.value(QStringLiteral("--max-added-cpu-percent"), QStringLiteral("10")).toDouble();
    LockScopeConfig config;
    std::vector<std::pair<QByteArray, int>> targets;
    if (!RateWriter::mastersFrom(argv, &config, &targets))
        return 2;
    QTemporaryDir dir;

    Phase base;
    Phase rec;
    int undrained = 0; // rounds whose watch did not judge every suspect within 30 s
    qint64 maxDrainMs = -1;
    for (int round = 0; round < rounds; ++round)
        for (const bool withRecorder : {round % 2 == 1, round % 2 == 0}) {
            const QString db = !withRecorder       ? QString()
                               : !teamDb.isEmpty() ? teamDb
                                                   : dir.filePath(QStringLiteral("r%1.sqlite").arg(round));
            const Phase p = runPhase(config, targets, rate, seconds, resources, db, watch);
            Phase& sum = withRecorder ? rec : base;
            sum.load.add(p.load);
            sum.events += p.events;
            sum.ownCpuNs += p.ownCpuNs;
            sum.writerCpuNs += p.writerCpuNs;
            sum.bytes += p.bytes;
            sum.watchCpuNs += p.watchCpuNs;
            sum.watchDrainCpuNs += p.watchDrainCpuNs;
            sum.watchPendingAtEnd = qMax(sum.watchPendingAtEnd, p.watchPendingAtEnd);
            sum.watchUnchecked += p.watchUnchecked;
            sum.watchReads += p.watchReads;
            sum.incidents += p.incidents;
            if (withRecorder) {
                undrained += p.watchDrainMs < 0 ? 1 : 0;
                maxDrainMs = qMax(maxDrainMs, p.watchDrainMs);
            }
            sum.maxBacklog = qMax(sum.maxBacklog, p.maxBacklog);
            sum.endBacklog = qMax(sum.endBacklog, p.endBacklog);
        }
    const double baseCpu = 100.0 * base.load.cpuNs / base.load.wallNs;
    const double recCpu = 100.0 * rec.load.cpuNs / rec.load.wallNs;
    const double added = baseCpu > 0 ? 100.0 * (recCpu - baseCpu) / baseCpu : 0;
    const double ownCpu = 100.0 * rec.ownCpuNs / rec.load.wallNs;
    const double ownShare = baseCpu > 0 ? 100.0 * ownCpu / baseCpu : 0;
    const bool keptUp = rec.endBacklog <= rate; // at most a second behind
    const bool ok =
        base.load.errors == 0 && rec.load.errors == 0 && ownShare <= maxAdded && keptUp && rec.events > 0;
    QJsonObject out{
        {QStringLiteral("bench"), QStringLiteral("recorder")},
        {QStringLiteral("masters"), int(config.masters.size())},
        {QStringLiteral("store"), teamDb.isEmpty() ? QStringLiteral("sqlite") : QStringLiteral("postgresql")},
        {QStringLiteral("changesPerSec"), rate},
        {QStringLiteral("seconds"), seconds},
        {QStringLiteral("rounds"), rounds},
        {QStringLiteral("changesWritten"), base.load.changes + rec.load.changes},
        {QStringLiteral("writeErrors"), base.load.errors + rec.load.errors},
        {QStringLiteral("baselineCpuPercent"), baseCpu},
        {QStringLiteral("recorderCpuPercent"), recCpu},
        {QStringLiteral("addedCpuPercent"), added},
        // The recorder's own CPU (timed on its threads) against the baseline's: the
        // figure that survives a loaded machine, where the difference of two runs does not.
        {QStringLiteral("recorderOwnCpuPercent"), ownCpu},
        {QStringLiteral("ownCpuOfBaselinePercent"), ownShare},
        {QStringLiteral("writerThreadCpuPercent"), 100.0 * rec.writerCpuNs / rec.load.wallNs},
        {QStringLiteral("maxAddedCpuPercent"), maxAdded},
        {QStringLiteral("eventsRecorded"), rec.events},
        {QStringLiteral("maxBacklog"), rec.maxBacklog},
        {QStringLiteral("backlogAtEnd"), rec.endBacklog},
        {QStringLiteral("bytesPerEvent"), // the file's: a database's size is not the recording's alone
         rec.events > 0 && teamDb.isEmpty() ? double(rec.bytes) / double(rec.events) : -1.0}};
    if (watch) {
        // The live detection's own thread, against the baseline's CPU; what it had left to judge once
        // the recorder had committed everything, and how long that took.
        const double watchCpu = 100.0 * rec.watchCpuNs / rec.load.wallNs;
        out.insert(QStringLiteral("watchCpuPercent"), watchCpu);
        out.insert(QStringLiteral("watchCpuOfBaselinePercent"), baseCpu > 0 ? 100.0 * watchCpu / baseCpu : 0);
        out.insert(QStringLiteral("watchDrainCpuMs"), rec.watchDrainCpuNs / 1e6);
        out.insert(QStringLiteral("watchPendingAtEnd"), rec.watchPendingAtEnd);
        out.insert(QStringLiteral("watchDrainMs"), undrained > 0 ? -1 : maxDrainMs);
        out.insert(QStringLiteral("watchUnchecked"), rec.watchUnchecked);
        out.insert(QStringLiteral("watchReads"), rec.watchReads);
        out.insert(QStringLiteral("incidents"), rec.incidents);
    }
    if (!ok)
        out.insert(
            QStringLiteral("error"),
            !keptUp ? QStringLiteral("the recorder fell behind: %1 events waiting when the changes stopped")
                          .arg(rec.endBacklog)
            : ownShare > maxAdded ? QStringLiteral("the recorder added %1 % CPU (at most %2 % allowed)")
                                        .arg(ownShare, 0, 'f', 1)
                                        .arg(maxAdded)
                                  : QStringLiteral("writes failed or nothing was recorded"));
    return Benchmark::printLine(out, ok);
}

const Benchmark::Registration registration(
    "recorder",
    "-m URL... [--rate N] [--seconds S] [--rounds R] [--resources R] [--max-added-cpu-percent P] [--watch] "
    "[--db postgresql://USER@HOST:PORT/DB]",
    runRecorder);

} // namespace

} // namespace lockbench
