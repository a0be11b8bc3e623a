// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "diagnosis/doublegrantdetector.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "record/recordingreader.h"
#include "topology/masterset.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

QString utc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// `lockctl incidents`: every time a lock let two holders in at once, from the recording alone (no
// master is asked, so a recording copied from a server can be audited anywhere).
class IncidentsCommand final : public Command
{
public:
    IncidentsCommand()
        : Command(
              {.name = QStringLiteral("incidents"),
               .synopsis = QStringLiteral("incidents [--db FILE] [--since DURATION] [--resource RESOURCE] "
                                          "[--min-confidence LEVEL] [-m URL ...]"),
               .summary = QStringLiteral(
                   "Every time the recording shows a lock held by two holders at once: the two "
                   "tokens, when, the cause and the evidence (JSON with --json). Exits 1 when "
                   "it found one, 2 when the recording cannot be read. Reads the recording "
                   "only; needs no master.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return {RecordingArgument::option(),
                {QStringLiteral("since"),
                 QStringLiteral("Only incidents within this span before now (90s, 15m, 2h, 7d)."),
                 QStringLiteral("DURATION")},
                {QStringLiteral("resource"), QStringLiteral("Only this lock (typed as list prints it)."),
                 QStringLiteral("RESOURCE")},
                {QStringLiteral("min-confidence"),
                 QStringLiteral("possible, probable or proven (default probable)."),
                 QStringLiteral("LEVEL")}};
    }
    bool needsMasters() const override { return false; }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("incidents takes no arguments"));
        QString problem;
        const std::optional<qint64> since = DurationArgument::since(parser, &problem);
        if (!since)
            return context.fail(UsageError, problem);
        const qint64 sinceMs = *since;
        SafetyIncident::Confidence least = SafetyIncident::Confidence::Probable;
        if (parser.isSet(QStringLiteral("min-confidence"))) {
            const QString level = parser.value(QStringLiteral("min-confidence"));
            bool known = false;
            for (auto c : {SafetyIncident::Confidence::Possible, SafetyIncident::Confidence::Probable,
                           SafetyIncident::Confidence::Proven})
                if (safetyConfidenceName(c) == level) {
                    least = c;
                    known = true;
                }
            if (!known)
                return context.fail(UsageError,
                                    QStringLiteral("--min-confidence is possible, probable or proven, not %1")
                                        .arg(escapeBytes(level.toUtf8())));
        }
        QList<QByteArray> resources;
        if (parser.isSet(QStringLiteral("resource"))) {
            const std::optional<QByteArray> one = BytesArgument::parse(
                parser.value(QStringLiteral("resource")), QStringLiteral("--resource"), &problem);
            if (!one)
                return context.fail(UsageError, problem);
            resources << *one;
        }
        RecordingReader reader;
        // 1 means "found one": a recording that cannot be read is told apart (2, as a bad --db).
        if (const RedisError error =
                reader.open(RecordingArgument::path(parser), context.config().teamDatabasePassword))
            return context.fail(UsageError, error.message);
        QList<SafetyIncident> judged;
        if (resources.isEmpty()) {
            // The whole recording in one pass, every set of masters it holds.
            Result<QList<SafetyIncident>> all = DoubleGrantDetector::detectAll(reader);
            if (!all)
                return context.fail(UsageError, all.error().message);
            judged = std::move(*all);
        } else {
            const Result<ResourceHistory> history =
                reader.history(resources.first(), sinceMs, MasterSet::namesOf(context.config().masters));
            if (!history)
                return context.fail(UsageError, history.error().message);
            judged = DoubleGrantDetector::detect(*history);
        }
        QList<SafetyIncident> found;
        for (const SafetyIncident& i : std::as_const(judged))
            if (i.confidence >= least && (sinceMs < 0 || i.toMs >= sinceMs))
                found << i;
        if (context.json()) {
            QJsonArray list;
            for (const SafetyIncident& i : std::as_const(found))
                list.append(safetyIncidentJson(i));
            context.out() << QJsonDocument(QJsonObject{{QStringLiteral("incidents"), list}})
                                 .toJson(QJsonDocument::Compact)
                          << Qt::endl;
        } else if (found.isEmpty()) {
            context.out() << "No incidents." << Qt::endl;
        } else {
            for (const SafetyIncident& i : std::as_const(found)) {
                context.out() << utc(i.fromMs) << " to " << utc(i.toMs) << "  "
                              << safetyConfidenceName(i.confidence) << ' ' << safetyIncidentKindName(i.kind)
                              << "  " << escapeBytes(i.resource) << ": " << safetyIncidentHolders(i)
                              << " at once; " << i.cause << Qt::endl;
                for (const QString& line : i.evidence)
                    context.out() << "  " << line << Qt::endl;
            }
        }
        return found.isEmpty() ? Done : NotDone;
    }
};

const CommandRegistry incidentsRegistration(95,
                                            [] { return std::unique_ptr<Command>(new IncidentsCommand); });

} // namespace

} // namespace lockctl
