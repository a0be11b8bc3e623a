// SPDX-License-Identifier: Apache-2.0
#include "audit/auditreader.h"
#include "audit/teamauditreader.h"
#include "audit/teamdatabase.h"
#include "base/bytesdisplay.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/texttable.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

using namespace lockscope;

namespace lockctl {

namespace {

// `lockctl audit`: who wrote to which lock, from the team database (--team-db) or, without one,
// this machine's audit log. Every value shown came from a file or a database that others write:
// escaped before it reaches the terminal.
class AuditCommand final : public Command
{
public:
    AuditCommand()
        : Command({.name = QStringLiteral("audit"),
                   .synopsis =
                       QStringLiteral("audit [--since DURATION] [--resource NAME] [--limit N] [--verify]"),
                   .summary = QStringLiteral(
                       "The write attempts recorded (acquire, extend, release, force-release, ...), oldest "
                       "first: the team's from --team-db, else this machine's audit log (JSON Lines with "
                       "--json). --verify checks that no record was taken out of, or changed in, the "
                       "team database's chains (exit 1 when one was).")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return {{QStringLiteral("since"),
                 QStringLiteral("Only the records within this span before now (90s, 15m, 2h, 7d)."),
                 QStringLiteral("DURATION")},
                {QStringLiteral("resource"),
                 QStringLiteral("Only the records of this lock (escaped as list prints)."),
                 QStringLiteral("NAME")},
                {QStringLiteral("limit"), QStringLiteral("At most the newest N records (default 1000)."),
                 QStringLiteral("N")},
                {QStringLiteral("verify"), QStringLiteral("Check the team database's chains of records.")}};
    }
    bool needsMasters() const override { return false; }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("audit takes no arguments"));
        QString problem;
        const std::optional<qint64> since = DurationArgument::since(parser, &problem);
        if (!since)
            return context.fail(UsageError, problem);
        TeamAuditReader::Query query;
        if (*since >= 0)
            query.since = QDateTime::fromMSecsSinceEpoch(*since, Qt::UTC);
        if (parser.isSet(QStringLiteral("resource"))) {
            query.resource = BytesArgument::parse(parser.value(QStringLiteral("resource")),
                                                  QStringLiteral("--resource"), &problem);
            if (!query.resource)
                return context.fail(UsageError, problem);
        }
        if (parser.isSet(QStringLiteral("limit"))) {
            bool ok = false;
            query.limit = parser.value(QStringLiteral("limit")).toInt(&ok);
            if (!ok || query.limit < 1 || query.limit > 10000000)
                return context.fail(UsageError,
                                    QStringLiteral("--limit must be a whole number from 1 to 10000000"));
        }
        const std::optional<TeamDatabaseUrl>& team = context.config().teamDatabase;
        if (!team) {
            if (parser.isSet(QStringLiteral("verify")))
                return context.fail(UsageError,
                                    QStringLiteral("--verify checks a team database's chains (--team-db); "
                                                   "an audit log file keeps none"));
            return fromFile(context, query);
        }
        TeamDatabase db;
        if (const RedisError e = db.open(*team, context.config().teamDatabasePassword); e.isError())
            return context.fail(Unavailable, e.message);
        if (parser.isSet(QStringLiteral("verify")))
            return verify(context, db);
        Result<QList<QJsonObject>> records = TeamAuditReader::read(db, query);
        if (!records)
            return context.fail(Unavailable, records.error().message);
        print(context, *records);
        return Done;
    }

private:
    int fromFile(CliContext& context, const TeamAuditReader::Query& query)
    {
        // The file's tail: a bounded read, as the window's audit dialog makes it.
        const AuditReader::Tail tail =
            AuditReader::read(context.auditLogPath(), query.limit, 64LL * 1024 * 1024);
        if (!tail.error.isEmpty())
            return context.fail(UsageError, tail.error);
        QList<QJsonObject> records;
        const QString resource = query.resource ? escapeBytes(*query.resource) : QString();
        for (const QJsonObject& r : tail.records) {
            if (query.resource && r.value(QStringLiteral("resource")).toString() != resource)
                continue;
            if (query.since.isValid() && QDateTime::fromString(r.value(QStringLiteral("time")).toString(),
                                                               Qt::ISODateWithMs) < query.since)
                continue;
            records << r;
        }
        print(context, records);
        return Done;
    }

    static int verify(CliContext& context, TeamDatabase& db)
    {
        const Result<TeamAuditReader::Verification> v = TeamAuditReader::verify(db);
        if (!v)
            return context.fail(Unavailable, v.error().message);
        if (context.json()) {
            QJsonArray problems;
            for (const QString& p : v->problems)
                problems.append(p);
            context.out() << QJsonDocument(QJsonObject{{QStringLiteral("records"), v->rows},
                                                       {QStringLiteral("writers"), v->writers},
                                                       {QStringLiteral("whole"), v->problems.isEmpty()},
                                                       {QStringLiteral("problems"), problems}})
                                 .toJson(QJsonDocument::Compact)
                          << Qt::endl;
        } else {
            for (const QString& p : v->problems)
                context.out() << escapeText(p) << '\n';
            context.out() << v->rows << " records from " << v->writers << " writers: "
                          << (v->problems.isEmpty() ? "every chain is whole"
                                                    : QStringLiteral("%1 breaks").arg(v->problems.size()))
                          << Qt::endl;
        }
        return v->problems.isEmpty() ? Done : NotDone;
    }

    static void print(CliContext& context, const QList<QJsonObject>& records)
    {
        if (context.json()) {
            for (const QJsonObject& r : records)
                context.out() << QJsonDocument(r).toJson(QJsonDocument::Compact) << '\n';
            context.out().flush();
            return;
        }
        if (records.isEmpty()) {
            context.out() << "No write was recorded." << Qt::endl;
            return;
        }
        TextTable table({QStringLiteral("TIME"), QStringLiteral("WHO"), QStringLiteral("ACTION"),
                         QStringLiteral("RESOURCE"), QStringLiteral("OUTCOME")});
        const auto text = [](const QJsonObject& r, const char* key) {
            return escapeText(r.value(QLatin1String(key)).toString());
        };
        for (const QJsonObject& r : records)
            table.add({text(r, "time"),
                       QStringLiteral("%1@%2").arg(text(r, "user"), text(r, "host")) +
                           (r.contains(QStringLiteral("program")) ? QLatin1Char('/') + text(r, "program")
                                                                  : QString()),
                       text(r, "action"), text(r, "resource"), text(r, "outcome")});
        table.print(context.out());
    }
};

} // namespace

const CommandRegistry auditRegistration(98, [] { return std::unique_ptr<Command>(new AuditCommand); });

} // namespace lockctl
