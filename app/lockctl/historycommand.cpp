// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/historyreport.h"
#include "diagnosis/recordedstory.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "record/historyjson.h"
#include "record/recordingreader.h"
#include "topology/masterset.h"

#include <QDateTime>
#include <QJsonDocument>

using namespace lockscope;

namespace lockctl {

namespace {

// `lockctl history RESOURCE`: the flight recorder's story of one lock, read from the file alone
// (no master is contacted, so it works for a post-mortem on another machine).
class HistoryCommand final : public Command
{
public:
    HistoryCommand()
        : Command({.name = QStringLiteral("history"),
                   .synopsis = QStringLiteral("history RESOURCE [--db FILE] [--since DURATION] [-m URL ...]"),
                   .summary = QStringLiteral(
                       "The recorded episodes of one lock, oldest first: holder, owner, start, end, how "
                       "it ended, extensions; then every event, and what the recording says is wrong with "
                       "the open episode (JSON with --json). Reads the recording only; needs no master.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return {
            RecordingArgument::option(),
            {QStringLiteral("since"),
             QStringLiteral("Only episodes still going on within this span before now (90s, 15m, 2h, 7d)."),
             QStringLiteral("DURATION")}};
    }
    bool needsMasters() const override { return false; }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional.size() != 1)
            return context.fail(UsageError, QStringLiteral("history takes one RESOURCE"));
        QString problem;
        const std::optional<QByteArray> resource =
            BytesArgument::parse(positional.first(), QStringLiteral("RESOURCE"), &problem);
        if (!resource)
            return context.fail(UsageError, problem);
        const std::optional<qint64> since = DurationArgument::since(parser, &problem);
        if (!since)
            return context.fail(UsageError, problem);
        const qint64 sinceMs = *since;
        const QString path = RecordingArgument::path(parser);
        RecordingReader reader;
        if (const RedisError error = reader.open(path, context.config().teamDatabasePassword))
            return context.fail(NotDone, error.message);
        // -m names the masters whose story to tell (a recording may hold several sets); without it,
        // the story of the set that recorded the resource last, and the others named.
        const Result<ResourceHistory> history =
            reader.history(*resource, sinceMs, MasterSet::namesOf(context.config().masters));
        if (!history)
            return context.fail(NotDone, history.error().message);
        // What the recording alone says of the open episode (no master is asked, so no waiters,
        // owner connection or quorum: `lockctl list --json` tells those).
        DiagnosisContext words;
        words.nowMs = QDateTime::currentMSecsSinceEpoch();
        const QList<Diagnosis> diagnoses = RecordedStory::diagnose(*history, words);
        if (context.json()) {
            const QJsonDocument json(historyReportJson(*history, diagnoses));
            context.out() << json.toJson(QJsonDocument::Indented);
        } else {
            for (const QString& line : HistoryJson::text(*history))
                context.out() << line << Qt::endl;
            for (const Diagnosis& d : diagnoses)
                context.out() << "diagnosis " << diagnosisCodeName(d.code) << ": " << d.sentence << Qt::endl;
        }
        return Done;
    }
};

const CommandRegistry historyRegistration(90, [] { return std::unique_ptr<Command>(new HistoryCommand); });

} // namespace

} // namespace lockctl
