// SPDX-License-Identifier: Apache-2.0
#include "base/heaptrimmer.h"
#include "config/commandlineconfig.h"
#include "diagnosis/waiterwatch.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/terminationsignals.h"
#include "monitor/lockmonitor.h"
#include "record/recorder.h"
#include "topology/masterset.h"

using namespace lockscope;

namespace lockctl {

namespace {

// `lockctl record`: the flight recorder without a window, until SIGINT or SIGTERM (a server, a
// systemd unit). Rides out outages as watch does: masters reconnect and are read again.
class RecordCommand final : public Command
{
public:
    RecordCommand()
        : Command({.name = QStringLiteral("record"),
                   .synopsis = QStringLiteral(
                       "record [--db FILE] [--max-age DURATION] [--max-size-mb N] [--pattern GLOB]... "
                       "[--discover GLOB]... [--fence GLOB]..."),
                   .summary = QStringLiteral(
                       "Record every lock and master change to the flight recorder until interrupted "
                       "(SIGINT/SIGTERM), for history; --pattern and --discover as for list.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        QList<QCommandLineOption> out{
            {QStringLiteral("db"),
             QStringLiteral(
                 "The recording to read or write (default $XDG_STATE_HOME/lockscope/recording.sqlite)."),
             QStringLiteral("FILE")},
            {QStringLiteral("max-age"), QStringLiteral("Forget events older than this (default 30d)."),
             QStringLiteral("DURATION")},
            {QStringLiteral("max-size-mb"),
             QStringLiteral("Forget the oldest events while the recording is larger (default 512)."),
             QStringLiteral("N")},
            RecordingArgument::allowSharedOption()};
        return out + CommandLineConfig::patternOptions(QStringLiteral("to record"));
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("record takes no arguments"));
        // It runs for days: what the lock changes free inside malloc's heap goes back to the system.
        const HeapTrimmer heapTrimmer;
        RecorderOptions options;
        options.path = RecordingArgument::path(parser);
        options.databasePassword = context.config().teamDatabasePassword;
        options.allowShared = RecordingArgument::allowShared(parser);
        options.auditLogPath = context.auditLogPath();
        QString problem;
        if (parser.isSet(QStringLiteral("max-age"))) {
            const std::optional<qint64> age = DurationArgument::parse(
                QStringLiteral("--max-age"), parser.value(QStringLiteral("max-age")), &problem);
            if (!age)
                return context.fail(UsageError, problem);
            options.maxAgeMs = *age;
        }
        if (parser.isSet(QStringLiteral("max-size-mb"))) {
            const std::optional<qint64> mb =
                NumberArgument::parse(QStringLiteral("max-size-mb"),
                                      parser.value(QStringLiteral("max-size-mb")), 1, 1 << 30, &problem);
            if (!mb)
                return context.fail(UsageError, problem);
            options.maxBytes = *mb * 1024 * 1024;
        }
        CommandLineConfig::applyPatternOptions(parser, context.config().monitor);
        for (ConnectionOptions& m : context.config().masters) {
            m.autoReconnect = true;
            m.healthIntervalMs = 1000;
        }
        TerminationSignals terminations;
        bool stop = false;
        int code = Done;
        QObject::connect(&terminations, &TerminationSignals::received, [&stop](int) { stop = true; });

        MasterSet& masters = context.openMasters();
        LockMonitor monitor(&masters, context.config());
        // No screen to spare: every change the masters show is recorded, not a few per second.
        monitor.setCoalesceMs(0);
        Recorder recorder(options);
        // Said once the file is open and the masters are watched (subscribed, their first pass read):
        // a script that starts its workload on this line has every change of it recorded. (Said at
        // the file's opening, a sanitizer run's first tenures came before the monitor was there.)
        bool opened = false;
        bool announced = false;
        const auto watching = [&] {
            if (monitor.isInitialScanDone())
                return true;
            for (int i = 0; i < masters.size(); ++i)
                if (masters.at(i)->state() != RedisConnection::State::Down)
                    return false;
            return true; // none answers: recorded from when one does
        };
        const auto announce = [&] {
            if (opened && !announced && watching()) {
                announced = true;
                context.out() << "recording " << masters.size() << " master(s) to " << options.path
                              << Qt::endl;
            }
        };
        QObject::connect(recorder.writer(), &RecordingSink::opened, &recorder, [&](const RedisError& error) {
            if (error) {
                context.fail(NotDone, error.message);
                code = NotDone;
                stop = true;
                return;
            }
            opened = true;
            announce();
        });
        QObject::connect(&monitor, &LockMonitor::initialScanFinished, &recorder, announce);
        QObject::connect(&masters, &MasterSet::masterStateChanged, &recorder, announce);
        QObject::connect(recorder.writer(), &RecordingSink::failed, &recorder, [&](const RedisError& error) {
            context.err() << "lockctl: " << error.message << " (events are dropped until it works again)"
                          << Qt::endl;
        });
        recorder.attach(&monitor);
        WaiterWatch::recordInto(&recorder, &masters, &monitor); // Redisson's waiters, for `stats`
        monitor.start();
        context.waitUntil([&stop] { return stop; }, std::numeric_limits<int>::max());
        if (code == Done) {
            recorder.flush();
            context.out() << "stopped; " << recorder.written() + recorder.backlog() << " event(s) recorded"
                          << Qt::endl;
        }
        return code;
    }
};

const CommandRegistry recordRegistration(80, [] { return std::unique_ptr<Command>(new RecordCommand); });

} // namespace

} // namespace lockctl
