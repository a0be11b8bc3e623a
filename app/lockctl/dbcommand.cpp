// SPDX-License-Identifier: Apache-2.0
#include "audit/teamdatabaseurl.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "record/recordingcopy.h"
#include "record/recordingdatabase.h"

using namespace lockscope;

namespace lockctl {

namespace {

// `lockctl db copy`: a recording and this machine's audit log into the team's PostgreSQL database
// (issue #45), for a team that starts sharing one history. Idempotent: RecordingCopy.
class DbCommand final : public Command
{
public:
    DbCommand()
        : Command({.name = QStringLiteral("db"),
                   .synopsis = QStringLiteral(
                       "db copy [--from FILE] [--no-audit-log] --to postgresql://USER@HOST/DB"),
                   .summary = QStringLiteral(
                       "Copy a recording (default: this machine's) and the audit log into a team database; "
                       "run twice, nothing doubles. The password as for --team-db (--team-db-password-env, "
                       "PGPASSWORD, ~/.pgpass).")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return {
            {QStringLiteral("from"),
             QStringLiteral(
                 "The recording file to copy (default $XDG_STATE_HOME/lockscope/recording.sqlite)."),
             QStringLiteral("FILE")},
            {QStringLiteral("to"),
             QStringLiteral("The team database (postgresql://USER@HOST[:PORT]/DBNAME)."),
             QStringLiteral("URL")},
            {QStringLiteral("no-audit-log"), QStringLiteral("Copy the recording alone, not the audit log.")}};
    }
    bool needsMasters() const override { return false; }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (positional != QStringList{QStringLiteral("copy")})
            return context.fail(UsageError, QStringLiteral("db takes one action: copy"));
        if (!parser.isSet(QStringLiteral("to")))
            return context.fail(UsageError,
                                QStringLiteral("db copy needs --to postgresql://USER@HOST/DBNAME"));
        const Result<TeamDatabaseUrl> to = TeamDatabaseUrl::parse(parser.value(QStringLiteral("to")));
        if (!to)
            return context.fail(UsageError, to.error().message);
        const QString from = parser.isSet(QStringLiteral("from")) ? parser.value(QStringLiteral("from"))
                                                                  : RecordingDatabase::defaultPath();
        const QString auditLog =
            parser.isSet(QStringLiteral("no-audit-log")) ? QString() : context.auditLogPath();
        const Result<RecordingCopy::Report> report =
            RecordingCopy::copy(from, auditLog, *to, context.config().teamDatabasePassword);
        if (!report)
            return context.fail(NotDone, report.error().message);
        context.out() << "copied " << report->sessions << " session(s) with " << report->events
                      << " event(s) and " << report->auditRecords << " audit record(s) to " << to->toString()
                      << "; already there: " << report->sessionsThere << " session(s), " << report->auditThere
                      << " audit record(s)" << Qt::endl;
        if (report->auditUnreadable > 0)
            context.err() << "lockctl: " << report->auditUnreadable
                          << " line(s) of the audit log are not records and were not copied" << Qt::endl;
        return Done;
    }
};

const CommandRegistry dbRegistration(99, [] { return std::unique_ptr<Command>(new DbCommand); });

} // namespace

} // namespace lockctl
