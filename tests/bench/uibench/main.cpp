// The real window, offscreen, through a full discovery and reconciliation of many locks: prints
// one JSON line with the longest GUI event-loop stall, the 99th percentile and peak RSS, and how
// long each frame of scrolling through the table took while the reconciliation ran.
//
//   uibench -m URL... --expect N [--settle-ms 3000] [--timeout-ms 600000]
//   uibench -m URL... --select RESOURCE --hold-ms N     (for screenshots: a lock selected, then wait)

#include "batchqueue.h"
#include "coreservice.h"
#include "corethread.h"
#include "launchoptions.h"
#include "locktablemodel.h"
#include "locktableview.h"
#include "mainwindow.h"
#include "scrollprobe.h"
#include "stallmeter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <sys/resource.h>

using namespace lockscope;

namespace {

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
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

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lockscope-uibench"));
    QStringList args = QCoreApplication::arguments();
    const qint64 expect = takeOption(args, QStringLiteral("--expect"), QStringLiteral("0")).toLongLong();
    const int settleMs = takeOption(args, QStringLiteral("--settle-ms"), QStringLiteral("3000")).toInt();
    const int limitMs = takeOption(args, QStringLiteral("--limit-ms"), QStringLiteral("600000")).toInt();
    const QByteArray select = takeOption(args, QStringLiteral("--select")).toUtf8();
    const int holdMs = takeOption(args, QStringLiteral("--hold-ms"), QStringLiteral("0")).toInt();

    Result<LaunchOptions> options = LaunchOptions::parse(args);
    if (!options) {
        std::fprintf(stderr, "uibench: %s\n", qPrintable(options.error().message));
        return 2;
    }
    QTemporaryDir scratch;
    if (options->auditLogPath == LaunchOptions::defaultAuditLogPath())
        options->auditLogPath = scratch.filePath(QStringLiteral("audit.jsonl"));
    // A second full pass soon after the first, so the measurement covers a reconciliation too.
    options->config.monitor.reconcileIntervalMs =
        qMin(options->config.monitor.reconcileIntervalMs, settleMs / 2 + 1);

    StallMeter meter;
    MainWindow window(options->config, options->auditLogPath);
    window.show();
    meter.start();
    QElapsedTimer clock;
    clock.start();
    qint64 loadedMs = -1;

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
    QList<bool> scanned;
    QObject::connect(window.core()->service(), &CoreService::scanProgress, &app,
                     [&](int master, qint64 done, qint64 total) {
                         if (master >= scanned.size())
                             scanned.resize(master + 1);
                         if (total > 0 && done >= total && !scanned.at(master)) {
                             scanned[master] = true;
                             if (scanned.count(true) == options->config.masters.size())
                                 scansMs = clock.elapsed();
                         }
                     });
    QObject::connect(&window, &MainWindow::initialScanFinished, &app,
                     [&] { initialScanMs = clock.elapsed(); });
    QObject::connect(window.batchQueue(), &BatchQueue::applied, &app, [&] {
        if (firstRowsMs < 0)
            firstRowsMs = clock.elapsed();
    });

    // Scrolling starts once the table is full and goes on through the reconciliation that follows.
    ScrollProbe scrolling(window.lockView());
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        const bool loaded = window.isInitialScanFinished() && window.batchQueue()->isIdle() &&
                            window.lockModel()->rowCount() >= expect;
        if (loaded && loadedMs < 0) {
            loadedMs = clock.elapsed();
            guiCpuMs = cpuMs(CLOCK_THREAD_CPUTIME_ID);
            processCpuMs = cpuMs(CLOCK_PROCESS_CPUTIME_ID);
            scrolling.start();
            QTimer::singleShot(settleMs, &app, &QCoreApplication::quit);
        }
        if (clock.elapsed() > limitMs)
            QCoreApplication::exit(3);
    });
    poll.start(50);
    const int rc = app.exec();
    meter.stop();
    scrolling.stop();
    const QJsonObject result{
        {QStringLiteral("locks"), window.lockModel()->rowCount()},
        {QStringLiteral("maxStallMs"), qRound(meter.maxStallMs() * 10) / 10.0},
        {QStringLiteral("p99StallMs"), qRound(meter.percentileStallMs(99) * 10) / 10.0},
        {QStringLiteral("peakRssMiB"), qRound(peakRssMiB() * 10) / 10.0},
        {QStringLiteral("loadMs"), loadedMs},
        {QStringLiteral("scansMs"), scansMs},
        {QStringLiteral("initialScanMs"), initialScanMs},
        {QStringLiteral("firstRowsMs"), firstRowsMs},
        {QStringLiteral("guiCpuMs"), guiCpuMs},
        {QStringLiteral("processCpuMs"), processCpuMs},
        {QStringLiteral("scrollFrames"), qint64(scrolling.frames())},
        {QStringLiteral("scrollFrameP99Ms"), qRound(scrolling.percentileFrameMs(99) * 10) / 10.0},
        {QStringLiteral("scrollFrameMaxMs"), qRound(scrolling.maxFrameMs() * 10) / 10.0},
        {QStringLiteral("timedOut"), rc == 3}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return rc == 3 ? 1 : 0;
}
