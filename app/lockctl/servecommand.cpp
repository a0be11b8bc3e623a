// SPDX-License-Identifier: Apache-2.0
#include "base/heaptrimmer.h"
#include "base/monotonicclock.h"
#include "config/commandlineconfig.h"
#include "diagnosis/incidentwatch.h"
#include "diagnosis/waiterwatch.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/metricsserver.h"
#include "lockctl/terminationsignals.h"
#include "metrics/lockactivity.h"
#include "metrics/lockwaiterpoller.h"
#include "metrics/metricsrenderer.h"
#include "metrics/webconfig.h"
#include "monitor/lockmonitor.h"
#include "record/recorder.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QHostAddress>
#include <QScopeGuard>
#include <QThread>

#include <sys/resource.h>

using namespace lockscope;

namespace lockctl {

namespace {

// LockScope's port when --listen gives none (not in Prometheus's default port registry).
constexpr quint16 defaultPort = 9812;

struct ListenAddress
{
    QHostAddress host;
    quint16 port = 0;
};

// "ADDR:PORT", "[v6]:PORT" or ":PORT" (loopback); a port of 0 lets the system pick one.
std::optional<ListenAddress> parseListen(const QString& text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0)
        return std::nullopt;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint port = text.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535)
        return std::nullopt;
    ListenAddress out;
    out.port = quint16(port);
    out.host = host.isEmpty() ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(host);
    if (out.host.isNull())
        return std::nullopt;
    return out;
}

// Raises the soft limit on open files to the hard one (systemd's LimitNOFILE=, a shell's ulimit -Hn):
// the soft default of 1,024 is shared by the masters' connections and the HTTP clients. Returns the
// limit now in force.
rlim_t raiseFileLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            return raised.rlim_cur;
    }
    return limit.rlim_cur;
}

class ServeCommand final : public Command
{
public:
    ServeCommand()
        : Command({.name = QStringLiteral("serve"),
                   .synopsis = QStringLiteral(
                       "serve [--listen ADDR:PORT] [--web-config FILE] [--max-lock-series N] "
                       "[--record [--db FILE]] [--pattern GLOB]... [--discover GLOB]... [--fence GLOB]..."),
                   .summary = QStringLiteral(
                       "Watch the masters until stopped and serve Prometheus metrics over HTTP "
                       "(/metrics, /-/healthy, /-/ready); --pattern and --discover as for list.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        QList<QCommandLineOption> options = CommandLineConfig::patternOptions(QStringLiteral("to watch"));
        options << QCommandLineOption(QStringLiteral("listen"),
                                      QStringLiteral("Address and port to serve on (default 127.0.0.1:%1; "
                                                     "loopback unless an address is given).")
                                          .arg(defaultPort),
                                      QStringLiteral("ADDR:PORT"))
                << QCommandLineOption(QStringLiteral("web-config"),
                                      QStringLiteral("TLS and basic authentication for the listener, in the "
                                                     "format of Prometheus's web config file."),
                                      QStringLiteral("FILE"))
                << QCommandLineOption(QStringLiteral("max-lock-series"),
                                      QStringLiteral("Locks with per-lock series, the worst first (default "
                                                     "1000); the rest are counted in "
                                                     "lockscope_lock_series_dropped."),
                                      QStringLiteral("N"))
                << QCommandLineOption(
                       QStringLiteral("record"),
                       QStringLiteral("Keep the flight recording too, as lockctl record does."))
                << RecordingArgument::option() << RecordingArgument::allowSharedOption();
        return options;
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("serve takes no arguments"));
        // It runs for days: what the lock changes free inside malloc's heap goes back to the system.
        const HeapTrimmer heapTrimmer;
        const QString listenText = parser.isSet(QStringLiteral("listen"))
                                       ? parser.value(QStringLiteral("listen"))
                                       : QStringLiteral("127.0.0.1:%1").arg(defaultPort);
        const std::optional<ListenAddress> listen = parseListen(listenText);
        if (!listen)
            return context.fail(
                UsageError, QStringLiteral("--listen wants ADDR:PORT, e.g. 127.0.0.1:%1").arg(defaultPort));
        int maxSeries = 1000;
        if (parser.isSet(QStringLiteral("max-lock-series"))) {
            bool ok = false;
            maxSeries = parser.value(QStringLiteral("max-lock-series")).toInt(&ok);
            if (!ok || maxSeries < 0)
                return context.fail(UsageError,
                                    QStringLiteral("--max-lock-series wants a number, 0 or more"));
        }
        WebConfig web;
        if (parser.isSet(QStringLiteral("web-config"))) {
            Result<WebConfig> loaded = WebConfig::load(parser.value(QStringLiteral("web-config")));
            if (!loaded)
                return context.fail(UsageError, loaded.error().message);
            web = *loaded;
        }
        const bool record = parser.isSet(QStringLiteral("record"));
        if (parser.isSet(QStringLiteral("db")) && !record)
            return context.fail(UsageError, QStringLiteral("--db is the recording of --record"));
        if (RecordingArgument::allowShared(parser) && !record)
            return context.fail(UsageError, QStringLiteral("--allow-shared-recording is for --record"));
        CommandLineConfig::applyPatternOptions(parser, context.config().monitor);
        // A service rides out outages: masters reconnect and are re-read; none stops it.
        for (ConnectionOptions& m : context.config().masters) {
            m.autoReconnect = true;
            m.healthIntervalMs = 1000;
        }

        TerminationSignals termination;
        // A real event loop, not CliContext::waitUntil: its processEvents(…, 20 ms) polling kept a
        // core a quarter busy while nothing happened, which a service running for months must not.
        QEventLoop loop;
        bool stopping = false; // a signal while the masters were still being opened
        QObject::connect(&termination, &TerminationSignals::received, &loop, [&] {
            stopping = true;
            loop.quit();
        });
        MasterSet& masters = context.openMasters();
        LockMonitor monitor(&masters, context.config());
        // Every change the masters show, as lockctl record keeps them, not a few per second per
        // lock: the families' hold times (and --record's recording) need every tenure.
        monitor.setCoalesceMs(0);
        LockActivity activity(&monitor);
        LockWaiterPoller waiters(&masters, &monitor);

        double lastScrapeSeconds = -1;
        QHash<QPair<int, int>, quint64> incidents; // found by the watch of the recording (--record)
        MetricsServer::Pages pages;
        pages.metrics = [&] {
            QElapsedTimer timer;
            timer.start();
            MetricsInput in = activity.input(monotonicMs());
            in.maxLockSeries = maxSeries;
            in.waiters = [&waiters](const LockView& view) { return waiters.waitersOf(view); };
            in.lastScrapeSeconds = lastScrapeSeconds;
            in.version = QStringLiteral(PROJECT_VERSION);
            in.qtVersion = QString::fromLatin1(qVersion());
            in.incidentsWatched = record;
            in.incidents = incidents;
            QByteArray text = MetricsRenderer::render(in);
            lastScrapeSeconds = double(timer.nsecsElapsed()) / 1e9;
            return text;
        };
        pages.landing = landing(masters, context.config(), maxSeries, web);
        HttpLimits limits;
        // HTTP clients get at most a quarter of the descriptors: the masters' connections, the
        // recording and the listening socket keep theirs whatever the clients do.
        limits.maxConnections = int(std::min<rlim_t>(rlim_t(limits.maxConnections), raiseFileLimit() / 4));
        MetricsServer server(web, pages, limits);
        QObject::connect(&activity, &LockActivity::ready, &server, &MetricsServer::setReady);
        const Result<quint16> port = server.listen(listen->host, listen->port);
        if (!port)
            return context.fail(UsageError, port.error().message);
        QString host = listen->host.toString();
        if (listen->host.protocol() == QAbstractSocket::IPv6Protocol)
            host = QLatin1Char('[') + host + QLatin1Char(']');
        // So that a script (or a test given port 0) learns where to scrape.
        context.out() << "serving " << (web.tls() ? "https" : "http") << "://" << host << ':' << *port
                      << "/metrics" << Qt::endl;
        int code = Done;
        QThread watchThread;
        IncidentWatch* watch = nullptr; // lives on watchThread, deleted when it finishes
        const auto stopWatch = qScopeGuard([&watchThread] {
            watchThread.quit();
            watchThread.wait();
        });
        std::unique_ptr<Recorder> recorder;
        if (record) {
            RecorderOptions options;
            options.path = RecordingArgument::path(parser);
            options.databasePassword = context.config().teamDatabasePassword;
            options.allowShared = RecordingArgument::allowShared(parser);
            options.auditLogPath = context.auditLogPath();
            recorder = std::make_unique<Recorder>(options);
            QObject::connect(recorder->writer(), &RecordingSink::opened, &loop,
                             [&, path = options.path](const RedisError& error) {
                                 if (error) {
                                     code = context.fail(NotDone, error.message);
                                     loop.quit();
                                     return;
                                 }
                                 context.out() << "recording to " << path << Qt::endl;
                             });
            QObject::connect(recorder->writer(), &RecordingSink::failed, &loop, [&](const RedisError& error) {
                context.err() << "lockctl: " << error.message << " (events are dropped until it works again)"
                              << Qt::endl;
            });
            recorder->attach(&monitor);
            WaiterWatch::recordInto(recorder.get(), &masters, &monitor);
            // Two holders at once, judged from the recording as it is committed (its reads block
            // on the file: a thread of its own, never the loop that answers scrapes).
            watch = new IncidentWatch(options.path, options.databasePassword);
            watch->moveToThread(&watchThread);
            QObject::connect(&watchThread, &QThread::finished, watch, &QObject::deleteLater);
            QObject::connect(watch, &IncidentWatch::found, &loop, [&incidents](const SafetyIncident& i) {
                ++incidents[{int(i.kind), int(i.confidence)}];
            });
            watch->follow(recorder->writer());
            watchThread.start(QThread::LowPriority);
        }
        monitor.start();
        waiters.start();
        if (!stopping)
            loop.exec();
        if (recorder)
            recorder->flush();
        context.out() << "stopped" << Qt::endl;
        return code;
    }

private:
    static QString landing(const MasterSet& masters, const LockScopeConfig& config, int maxSeries,
                           const WebConfig& web)
    {
        QString rows;
        const auto row = [&rows](const QString& name, const QString& value) {
            rows += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>\n").arg(name, value.toHtmlEscaped());
        };
        for (int i = 0; i < masters.size(); ++i)
            row(QStringLiteral("Master %1").arg(i + 1), masters.at(i)->name()); // redacted URLs
        row(QStringLiteral("Patterns"), ScanPattern::listText(config.monitor.patterns));
        row(QStringLiteral("Poll interval"), QStringLiteral("%1 ms").arg(config.monitor.pollIntervalMs));
        row(QStringLiteral("Max lock series"), QString::number(maxSeries));
        row(QStringLiteral("TLS"), web.tls() ? QStringLiteral("on") : QStringLiteral("off"));
        row(QStringLiteral("Basic auth"), web.requiresAuth()
                                              ? QStringLiteral("on (%1 users)").arg(web.users().size())
                                              : QStringLiteral("off"));
        return QStringLiteral(
                   "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>LockScope "
                   "exporter</title></head>\n<body>\n<h1>LockScope exporter</h1>\n<p>Version %1. "
                   "<a href=\"/metrics\">Metrics</a> · <a href=\"/-/healthy\">Healthy</a> · "
                   "<a href=\"/-/ready\">Ready</a></p>\n<h2>Configuration</h2>\n<table>\n%2</table>\n"
                   "</body></html>\n")
            .arg(QStringLiteral(PROJECT_VERSION), rows);
    }
};

const CommandRegistry serveRegistration(25, [] { return std::unique_ptr<Command>(new ServeCommand); });

} // namespace

} // namespace lockctl
