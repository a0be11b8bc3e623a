// SPDX-License-Identifier: Apache-2.0
#include "audit/auditlog.h"
#include "base/bytesdisplay.h"
#include "config/keyglob.h"
#include "diagnosis/waiterwatch.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/terminationsignals.h"
#include "monitor/lockmonitor.h"
#include "record/recorder.h"
#include "topology/masterset.h"
#include "trace/locktracer.h"
#include "trace/tracerecordevent.h"
#include "trace/tracetext.h"

#include <QJsonDocument>

#include <csignal>
#include <limits>
#include <memory>
#include <optional>

using namespace lockscope;

namespace lockctl {

namespace {

// `lockctl trace RESOURCE`: who touches one lock, for a bounded time (issue #43). A read: allowed in
// read-only mode, but it shows other clients' commands on the lock, so the audit log records who
// traced what, when and on which masters, before MONITOR starts; a trace the log cannot record does
// not start.
class TraceCommand final : public Command
{
public:
    TraceCommand()
        : Command({.name = QStringLiteral("trace"),
                   .synopsis = QStringLiteral(
                       "trace RESOURCE [--for DURATION] [--budget KIB] [--record [--db FILE]]"),
                   .summary = QStringLiteral(
                       "Show every command on one lock's keys, with its connection and meaning, for a while "
                       "(MONITOR on the lock's masters; --for 30s by default, at most 1h; stops itself "
                       "when a master's stream exceeds --budget KiB/s, 8192 by default). --record keeps the "
                       "lock's "
                       "changes and what the trace saw in the flight recorder, for history and incidents.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return {
            QCommandLineOption(QStringLiteral("for"),
                               QStringLiteral("How long to trace (500ms, 30s, 5m...)."),
                               QStringLiteral("DURATION")),
            QCommandLineOption(
                QStringLiteral("budget"),
                QStringLiteral("Stop when a master's MONITOR stream exceeds KIB KiB a second."),
                QStringLiteral("KIB")),
            QCommandLineOption(QStringLiteral("record"),
                               QStringLiteral("Record the lock (as `record` does, for this lock alone) with "
                                              "who took it and the commands of holders past their lease, "
                                              "as evidence for `incidents`.")),
            RecordingArgument::option()};
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional.size() != 1)
            return context.fail(UsageError, QStringLiteral("trace takes one RESOURCE"));
        QString problem;
        const std::optional<QByteArray> resource =
            BytesArgument::parse(positional.first(), QStringLiteral("RESOURCE"), &problem);
        if (!resource)
            return context.fail(UsageError, problem);
        TraceLimits limits;
        if (parser.isSet(QStringLiteral("for"))) {
            const std::optional<qint64> ms =
                DurationArgument::parse(QStringLiteral("for"), parser.value(QStringLiteral("for")), &problem);
            if (!ms)
                return context.fail(UsageError, problem);
            if (*ms <= 0 || *ms > TraceLimits::maxDurationMs)
                return context.fail(UsageError, QStringLiteral("--for must be more than 0 and at most 1h"));
            limits.durationMs = *ms;
        }
        if (parser.isSet(QStringLiteral("budget"))) {
            const std::optional<qint64> kib =
                NumberArgument::parse(QStringLiteral("budget"), parser.value(QStringLiteral("budget")),
                                      TraceLimits::minBudgetBytesPerSecond / 1024,
                                      TraceLimits::maxBudgetBytesPerSecond / 1024, &problem);
            if (!kib)
                return context.fail(UsageError, problem);
            limits.budgetBytesPerSecond = *kib * 1024;
        }

        const bool recording = parser.isSet(QStringLiteral("record"));
        if (!recording && parser.isSet(QStringLiteral("db")))
            return context.fail(UsageError, QStringLiteral("--db is for --record"));
        if (recording) // the lock's own changes, recorded beside what the trace sees
            context.config().monitor.patterns = {ScanPattern(KeyGlob::literal(*resource))};

        const AuditLog audit = context.auditLog();
        if (const RedisError error = audit.check(); error.isError())
            return context.fail(UsageError, QStringLiteral("the trace is not started: ") + error.message +
                                                QStringLiteral(" (--audit-log FILE chooses another)"));
        MasterSet& masters = context.openMasters();
        QStringList unknown;
        const QList<LockTracer::Target> targets = LockTracer::targetsFor(masters, *resource, &unknown);
        for (const QString& u : std::as_const(unknown))
            context.err() << "lockctl: " << u << ": no node known to trace on" << Qt::endl;
        if (targets.isEmpty())
            return context.fail(Unavailable, QStringLiteral("no master to trace on"));
        m_masterNames = MasterSet::namesOf(context.config().masters);

        AuditRecord record = AuditRecord::now(QStringLiteral("trace"), *resource);
        for (const LockTracer::Target& t : targets)
            record.masters << m_masterNames.value(t.master);
        record.outcome = QStringLiteral("started");
        record.message = QStringLiteral("MONITOR for at most %1 ms, budget %2 KiB/s")
                             .arg(limits.durationMs)
                             .arg(limits.budgetBytesPerSecond / 1024);
        if (const RedisError error = audit.append(record); error.isError())
            return context.fail(Refused,
                                QStringLiteral("the trace is not started: its audit record could not be "
                                               "written: ") +
                                    error.message);

        m_context = &context;
        std::optional<TraceStop> stop;
        std::unique_ptr<LockMonitor> monitor;
        std::unique_ptr<Recorder> recorder;
        if (recording) {
            RecorderOptions options;
            options.path = RecordingArgument::path(parser);
            options.databasePassword = context.config().teamDatabasePassword;
            options.auditLogPath = context.auditLogPath();
            monitor = std::make_unique<LockMonitor>(&masters, context.config());
            monitor->setCoalesceMs(0); // every change, as `record` keeps them
            recorder = std::make_unique<Recorder>(options);
            QObject::connect(recorder->writer(), &RecordingSink::opened, recorder.get(),
                             [&stop, path = options.path](const RedisError& error) {
                                 if (error)
                                     stop =
                                         TraceStop{TraceStop::Reason::NotRecorded,
                                                   QStringLiteral("the recording %1 could not be opened: %2")
                                                       .arg(path, error.message)};
                             });
            recorder->attach(monitor.get());
            WaiterWatch::recordInto(recorder.get(), &masters, monitor.get());
            monitor->start();
        }
        LockTracer tracer(*resource, targets, limits);
        TerminationSignals terminations({SIGINT, SIGTERM});
        QObject::connect(&terminations, &TerminationSignals::received, &tracer, [&tracer] {
            tracer.stop(TraceStop::Reason::Requested, QStringLiteral("interrupted"));
        });
        QObject::connect(&tracer, &LockTracer::traced, [this, &recorder, &resource](const TracedCommand& c) {
            print(c);
            if (recorder)
                for (RecordEvent& e : TraceRecordEvent::of(*resource, c))
                    recorder->note(std::move(e));
        });
        QObject::connect(&tracer, &LockTracer::masterMonitoring,
                         [this](int master) { note(master, QStringLiteral("tracing"), QString()); });
        QObject::connect(&tracer, &LockTracer::masterFailed, [this](int master, const RedisError& error) {
            note(master, QStringLiteral("failed"), error.message);
        });
        QObject::connect(&tracer, &LockTracer::stopped, [&stop](const TraceStop& s) { stop = s; });
        tracer.start();
        context.waitUntil([&stop] { return stop.has_value(); }, std::numeric_limits<int>::max());
        if (tracer.isRunning()) // the recording could not be opened
            tracer.stop(stop->reason, stop->message);
        QString recorded;
        if (recorder) {
            recorder->flush();
            recorded = QStringLiteral("%1 event(s) recorded to %2")
                           .arg(recorder->written() + recorder->backlog())
                           .arg(RecordingArgument::path(parser));
        }

        if (context.json()) {
            QJsonObject summary = TraceText::summaryJson(tracer.summary(), m_masterNames);
            summary.insert(QStringLiteral("stopped"), stop->message);
            if (!recorded.isEmpty())
                summary.insert(QStringLiteral("recorded"), recorded);
            write(summary);
        } else {
            context.out() << "-- " << stop->message << Qt::endl;
            if (!recorded.isEmpty())
                context.out() << "-- " << recorded << Qt::endl;
            for (const QString& line : TraceText::summaryLines(tracer.summary(), m_masterNames))
                context.out() << line << Qt::endl;
        }
        if (stop->reason == TraceStop::Reason::NoMaster)
            return Unavailable;
        return stop->isFailure() ? NotDone : Done;
    }

private:
    void write(const QJsonObject& o)
    {
        m_context->out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
    }

    void print(const TracedCommand& c)
    {
        const QString master = m_masterNames.value(c.master);
        if (m_context->json())
            write(TraceText::toJson(c, master));
        else
            m_context->out() << TraceText::line(c, master) << Qt::endl;
    }

    void note(int master, const QString& state, const QString& detail)
    {
        const QString name = m_masterNames.value(master);
        if (m_context->json()) {
            QJsonObject o{{QStringLiteral("event"), QStringLiteral("master")},
                          {QStringLiteral("master"), name},
                          {QStringLiteral("state"), state}};
            if (!detail.isEmpty())
                o.insert(QStringLiteral("detail"), detail);
            write(o);
        } else {
            m_context->err() << "lockctl: " << name << ": " << state
                             << (detail.isEmpty() ? QString() : QStringLiteral(": ") + detail) << Qt::endl;
        }
    }

    CliContext* m_context = nullptr;
    QStringList m_masterNames;
};

const CommandRegistry traceRegistration(75, [] { return std::unique_ptr<Command>(new TraceCommand); });

} // namespace

} // namespace lockctl
