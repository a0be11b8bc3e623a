// SPDX-License-Identifier: Apache-2.0
// The real window, offscreen, through a full discovery and reconciliation of many locks: prints
// one JSON line with the longest GUI event-loop stall, the 99th percentile and peak RSS, and how
// long each frame of scrolling through the table took while the reconciliation ran.
//
//   uibench -m URL... --expect N [--settle-ms 3000] [--timeout-ms 600000] [--server-pids P,P...]
//     (--server-pids: the masters' processes, whose CPU up to the first view it reports)
//   uibench -m URL... --select RESOURCE --hold-ms N     (for screenshots: a lock selected, then wait)
//   uibench -m URL... --expect N --filter TEXT [--scroll-ms 5000] [--max-stall-ms 50] [--max-rss-mib 1228.8]
//     (the 1M case: once loaded, --scroll-ms of scrolling, then scrolling on while FilterProbe types
//     TEXT, clears it and switches the "Stuck" filter on and off; stalls measured in each phase
//     apart, the targets checked, exit 1 when one is missed)
//   --no-record, as lockscope's: the window without its flight recorder (what the recorder costs)
//   uibench --db FILE --insights [--max-stall-ms 50]   (the Insights view over a recording: insightsrun.h)

#include "base/compactmalloc.h"
#include "base/heaptrimmer.h"
#include "bench/uibench/filterprobe.h"
#include "bench/uibench/insightsrun.h"
#include "bench/uibench/scrollprobe.h"
#include "bench/uibench/stallmeter.h"
#include "bench/uibench/threadcpu.h"
#include "locks/batchqueue.h"
#include "locks/lockfilterbar.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "session/coreservice.h"
#include "session/corethread.h"
#include "session/launchoptions.h"
#include "window/mainwindow.h"
#include "window/windowrecording.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <sys/resource.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace lockscope;

namespace {

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

// What malloc holds when the run ends, in MiB: in use by the program, and free inside its arenas
// (taken from the system and not given back, resident or not). Beside the peak RSS they tell what
// the window keeps from what the heap's layout costs on top.
QJsonObject heapMiB()
{
#if defined(__GLIBC__)
    const struct mallinfo2 info = mallinfo2();
    const auto mib = [](size_t bytes) { return qRound(double(bytes) / 104857.6) / 10.0; };
    return {{QStringLiteral("inUse"), mib(info.uordblks + info.hblkhd)},
            {QStringLiteral("freeInArenas"), mib(info.fordblks)},
            {QStringLiteral("arenaBytes"), mib(info.arena)}};
#else
    return {};
#endif
}

// What the window's HeapTrimmer did (all -1 when it did not run: LOCKSCOPE_HEAP_TRIM=0, or no
// glibc malloc): its trims, the MiB they gave back, and the longest one in ms (it held an arena's
// lock that long at most).
QJsonObject heapTrimJson(const HeapTrimmer& trimmer)
{
    if (!trimmer.isRunning())
        return {{QStringLiteral("trims"), -1},
                {QStringLiteral("givenBackMiB"), -1},
                {QStringLiteral("longestMs"), -1}};
    return {{QStringLiteral("trims"), trimmer.trims()},
            {QStringLiteral("givenBackMiB"), qRound(double(trimmer.releasedBytes()) / 104857.6) / 10.0},
            {QStringLiteral("longestMs"), qRound(trimmer.longestTrimUs() / 100.0) / 10.0}};
}

// CPU time so far, in ms: of the calling thread, or of the whole process.
qint64 cpuMs(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Takes our own options out of the argument list, leaving lockctl's for LaunchOptions.
QString takeOption(QStringList& args, const QString& name, const QString& fallback = QString())
{
    const int at = int(args.indexOf(name));
    if (at < 0 || at + 1 >= args.size())
        return fallback;
    const QString value = args.at(at + 1);
    args.remove(at, 2);
    return value;
}

// Every lock expected shown and every batch applied, whether or not the first pass is over: with
// every key changing within seconds, keyspace events show all of them long before a polite pass
// over a server that busy ends (measured: ~500 keys/s, most of an hour for 1M keys).
bool isShown(const MainWindow& window, qint64 expect)
{
    return window.batchQueue()->isIdle() && window.lockModel()->rowCount() >= expect;
}

// The first full view: discovery over, and every lock expected shown.
bool isLoaded(const MainWindow& window, qint64 expect)
{
    return window.isInitialScanFinished() && isShown(window, expect);
}

// Polls for the run's progress until it quits; then the measures stop.
int execMeasured(QApplication& app, QTimer& poll, StallMeter& meter, ScrollProbe& scrolling)
{
    poll.start(50);
    const int rc = app.exec();
    meter.stop();
    scrolling.stop();
    return rc;
}

double tenths(double v)
{
    return qRound(v * 10) / 10.0;
}

// Rows whose resource, owner or token contains `text` (the proxy's plain-text filter), counted
// before the measure starts.
int rowsContaining(const LockTableModel& model, const QString& text)
{
    int n = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const LockView& v = model.viewAt(r);
        n += QString::fromUtf8(v.resource).contains(text, Qt::CaseInsensitive) ||
                     v.owner.contains(text, Qt::CaseInsensitive) ||
                     QString::fromUtf8(v.token).contains(text, Qt::CaseInsensitive)
                 ? 1
                 : 0;
    }
    return n;
}

// The 1M case (see the top): scrolling, then scrolling while filtering, each phase's stalls apart.
int runScrollAndFilter(QApplication& app, MainWindow& window, StallMeter& meter, qint64 expect,
                       const QString& filter, int scrollMs, int limitMs, double maxStallMs, double maxRssMiB,
                       const HeapTrimmer& heapTrimmer)
{
    QElapsedTimer clock;
    clock.start();
    qint64 loadedMs = -1;
    bool scanFinishedAtLoad = false;
    double loadMaxStall = 0;
    double scrollMax = 0, scrollP99 = 0, filterMax = 0, filterP99 = 0;
    auto* bar = window.findChild<LockFilterBar*>();
    FilterProbe filtering(bar, window.lockProxy());
    ScrollProbe scrolling(window.lockView());
    QObject::connect(&filtering, &FilterProbe::finished, &app, [&] {
        meter.stop();
        filterMax = meter.maxStallMs();
        filterP99 = meter.percentileStallMs(99);
        app.exit(filtering.timedOut() ? 3 : 0);
    });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        const bool loaded = isShown(window, expect);
        if (loaded && loadedMs < 0) {
            loadedMs = clock.elapsed();
            scanFinishedAtLoad = window.isInitialScanFinished();
            poll.stop();
            meter.stop();
            loadMaxStall = meter.maxStallMs();
            const int all = window.lockModel()->rowCount();
            filtering.typeText(filter, rowsContaining(*window.lockModel(), filter));
            filtering.clearText(all);
            filtering.toggleQuickFilter(LockFilterProxy::StuckFilter,
                                        window.lockModel()->counts()[size_t(LockStatus::Stuck)]);
            filtering.toggleQuickFilter(LockFilterProxy::StuckFilter, all);
            meter.start();
            scrolling.start();
            QTimer::singleShot(scrollMs, &app, [&] {
                meter.stop();
                scrollMax = meter.maxStallMs();
                scrollP99 = meter.percentileStallMs(99);
                meter.start();
                filtering.start(1000, 150, limitMs);
            });
            return;
        }
        if (clock.elapsed() > limitMs)
            QCoreApplication::exit(3);
    });
    const int rc = execMeasured(app, poll, meter, scrolling);
    const double rss = peakRssMiB();
    const bool stallOk = rc == 0 && qMax(scrollMax, filterMax) <= maxStallMs;
    const bool rssOk = rss <= maxRssMiB;
    const QJsonObject result{{QStringLiteral("locks"), window.lockModel()->rowCount()},
                             {QStringLiteral("loadMs"), loadedMs},
                             {QStringLiteral("scanFinishedAtLoad"), scanFinishedAtLoad},
                             {QStringLiteral("loadMaxStallMs"), tenths(loadMaxStall)},
                             {QStringLiteral("scrollMaxStallMs"), tenths(scrollMax)},
                             {QStringLiteral("scrollP99StallMs"), tenths(scrollP99)},
                             {QStringLiteral("filterMaxStallMs"), tenths(filterMax)},
                             {QStringLiteral("filterP99StallMs"), tenths(filterP99)},
                             {QStringLiteral("filterApplyMaxMs"), filtering.maxApplyMs()},
                             {QStringLiteral("filterSteps"), qint64(filtering.stepsDone())},
                             {QStringLiteral("maxStallMs"), tenths(qMax(scrollMax, filterMax))},
                             {QStringLiteral("peakRssMiB"), tenths(rss)},
                             {QStringLiteral("scrollFrames"), qint64(scrolling.frames())},
                             {QStringLiteral("scrollFrameP99Ms"), tenths(scrolling.percentileFrameMs(99))},
                             {QStringLiteral("scrollFrameMaxMs"), tenths(scrolling.maxFrameMs())},
                             {QStringLiteral("timedOut"), rc == 3},
                             {QStringLiteral("stallTargetMs"), maxStallMs},
                             {QStringLiteral("rssTargetMiB"), maxRssMiB},
                             {QStringLiteral("stallTargetMet"), stallOk},
                             {QStringLiteral("rssTargetMet"), rssOk},
                             {QStringLiteral("heapTrim"), heapTrimJson(heapTrimmer)}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return stallOk && rssOk ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    useCompactMalloc(); // as the window's main() does
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lockscope-uibench"));
    QStringList args = QCoreApplication::arguments();
    const qint64 expect = takeOption(args, QStringLiteral("--expect"), QStringLiteral("0")).toLongLong();
    const int settleMs = takeOption(args, QStringLiteral("--settle-ms"), QStringLiteral("3000")).toInt();
    const int limitMs = takeOption(args, QStringLiteral("--limit-ms"), QStringLiteral("600000")).toInt();
    const QByteArray select = takeOption(args, QStringLiteral("--select")).toUtf8();
    const int holdMs = takeOption(args, QStringLiteral("--hold-ms"), QStringLiteral("0")).toInt();
    const QString filter = takeOption(args, QStringLiteral("--filter"));
    const int scrollMs = takeOption(args, QStringLiteral("--scroll-ms"), QStringLiteral("5000")).toInt();
    const double maxStallMs =
        takeOption(args, QStringLiteral("--max-stall-ms"), QStringLiteral("50")).toDouble();
    const double maxRssMiB =
        takeOption(args, QStringLiteral("--max-rss-mib"), QStringLiteral("1228.8")).toDouble();

    // The masters' processes, when they run on this machine: their CPU up to the first view.
    QList<qint64> serverPids;
    for (const QString& pid :
         takeOption(args, QStringLiteral("--server-pids")).split(u',', Qt::SkipEmptyParts))
        serverPids << pid.toLongLong();
    const bool insights = args.removeAll(QStringLiteral("--insights")) > 0;
    const HeapTrimmer heapTrimmer; // as the window's main() does
    Result<LaunchOptions> options = LaunchOptions::parse(args);
    if (!options) {
        std::fprintf(stderr, "uibench: %s\n", qPrintable(options.error().message));
        return 2;
    }
    QTemporaryDir scratch;
    if (options->auditLogPath == LaunchOptions::defaultAuditLogPath())
        options->auditLogPath = scratch.filePath(QStringLiteral("audit.jsonl"));
    // A second full pass soon after the first, so the measurement covers a reconciliation too (the
    // 1M case keeps the configured interval: the writer's events are its load).
    if (filter.isEmpty())
        options->config.monitor.reconcileIntervalMs =
            qMin(options->config.monitor.reconcileIntervalMs, settleMs / 2 + 1);

    StallMeter meter;
    MainWindow window(options->config, options->auditLogPath);
    // As lockscope does: `--no-record` measures the window without its flight recorder.
    if (options->noRecord)
        window.recording()->disableForThisRun();
    window.show();
    if (insights)
        return runInsights(app, window, meter, options->reviewPath, limitMs, maxStallMs);
    meter.start();
    if (!filter.isEmpty())
        return runScrollAndFilter(app, window, meter, expect, filter, scrollMs, limitMs, maxStallMs,
                                  maxRssMiB, heapTrimmer);
    QElapsedTimer clock;
    clock.start();
    qint64 loadedMs = -1;
    const qint64 serversCpuAtStartMs = processesCpuMs(serverPids);
    qint64 serversCpuMs = -1;

    if (holdMs > 0) {
        QTimer picker;
        QObject::connect(&picker, &QTimer::timeout, &window, [&] {
            if (window.lockModel()->rowOf(select) >= 0 && window.lockView()->currentResource() != select)
                window.lockView()->selectResource(select);
        });
        picker.start(200);
        QTimer::singleShot(holdMs, &app, &QCoreApplication::quit);
        return app.exec();
    }

    // Where the first full view's time goes: the
    // masters' first SCAN passes, the monitor's first complete picture reaching the GUI thread, the
    // first and last rows reaching the model; and the CPU the GUI thread and the process used.
    qint64 scansMs = -1, initialScanMs = -1, firstRowsMs = -1, guiCpuMs = -1, processCpuMs = -1;
    // How the GUI thread's share was spread: its CPU while the scans still ran, and how many slices
    // (and of them, slices that added rows) reached the model before the first full view.
    qint64 guiCpuAtScansMs = -1, slices = 0, addingSlices = 0;
    QJsonObject threadCpu; // processCpuMs by thread name
    QList<bool> scanned;
    QObject::connect(window.core()->service(), &CoreService::scanProgress, &app,
                     [&](int master, qint64 done, qint64 total) {
                         if (master >= scanned.size())
                             scanned.resize(master + 1);
                         if (total > 0 && done >= total && !scanned.at(master)) {
                             scanned[master] = true;
                             if (scanned.count(true) == options->config.masters.size()) {
                                 scansMs = clock.elapsed();
                                 guiCpuAtScansMs = cpuMs(CLOCK_THREAD_CPUTIME_ID);
                             }
                         }
                     });
    QObject::connect(&window, &MainWindow::initialScanFinished, &app,
                     [&] { initialScanMs = clock.elapsed(); });
    QObject::connect(window.batchQueue(), &BatchQueue::applied, &app, [&](const LockBatch& slice) {
        if (firstRowsMs < 0)
            firstRowsMs = clock.elapsed();
        if (loadedMs < 0) {
            ++slices;
            addingSlices += slice.added.isEmpty() ? 0 : 1;
        }
    });

    // Scrolling starts once the table is full and goes on through the reconciliation that follows.
    ScrollProbe scrolling(window.lockView());
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        const bool loaded = isLoaded(window, expect);
        if (loaded && loadedMs < 0) {
            loadedMs = clock.elapsed();
            guiCpuMs = cpuMs(CLOCK_THREAD_CPUTIME_ID);
            processCpuMs = cpuMs(CLOCK_PROCESS_CPUTIME_ID);
            threadCpu = threadCpuMsByName();
            serversCpuMs = processesCpuMs(serverPids) - serversCpuAtStartMs;
            scrolling.start();
            QTimer::singleShot(settleMs, &app, &QCoreApplication::quit);
        }
        if (clock.elapsed() > limitMs)
            QCoreApplication::exit(3);
    });
    const int rc = execMeasured(app, poll, meter, scrolling);
    const QJsonObject result{
        {QStringLiteral("locks"), window.lockModel()->rowCount()},
        {QStringLiteral("maxStallMs"), qRound(meter.maxStallMs() * 10) / 10.0},
        {QStringLiteral("p99StallMs"), qRound(meter.percentileStallMs(99) * 10) / 10.0},
        {QStringLiteral("maxStallCpuMs"), qRound(meter.maxStallCpuMs() * 10) / 10.0},
        {QStringLiteral("p99StallCpuMs"), qRound(meter.percentileStallCpuMs(99) * 10) / 10.0},
        {QStringLiteral("longestStall"), meter.longestStall().toJson()},
        {QStringLiteral("p99Stalls"), meter.stallsFromPercentile(99).toJson()},
        {QStringLiteral("peakRssMiB"), qRound(peakRssMiB() * 10) / 10.0},
        {QStringLiteral("heapMiB"), heapMiB()},
        {QStringLiteral("heapTrim"), heapTrimJson(heapTrimmer)},
        {QStringLiteral("loadMs"), loadedMs},
        {QStringLiteral("scansMs"), scansMs},
        {QStringLiteral("initialScanMs"), initialScanMs},
        {QStringLiteral("firstRowsMs"), firstRowsMs},
        {QStringLiteral("guiCpuAtScansMs"), guiCpuAtScansMs},
        {QStringLiteral("slices"), slices},
        {QStringLiteral("addingSlices"), addingSlices},
        {QStringLiteral("guiCpuMs"), guiCpuMs},
        {QStringLiteral("processCpuMs"), processCpuMs},
        {QStringLiteral("threadCpuMs"), threadCpu},
        {QStringLiteral("serversCpuMs"), serverPids.isEmpty() ? -1 : serversCpuMs},
        {QStringLiteral("scrollFrames"), qint64(scrolling.frames())},
        {QStringLiteral("scrollFrameP99Ms"), qRound(scrolling.percentileFrameMs(99) * 10) / 10.0},
        {QStringLiteral("scrollFrameMaxMs"), qRound(scrolling.maxFrameMs() * 10) / 10.0},
        {QStringLiteral("timedOut"), rc == 3}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return rc == 3 ? 1 : 0;
}
