// SPDX-License-Identifier: Apache-2.0
#include "session/launchoptions.h"

#include "audit/auditlog.h"
#include "audit/teamdatabaseurl.h"
#include "base/bytesdisplay.h"
#include "config/commandlineconfig.h"
#include "record/recordingdatabase.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace lockscope {

namespace {

RedisError usage(const QString& message)
{
    return RedisError(ErrorKind::InvalidArgument, QString(), message);
}

RedisError checkRecording(const QString& db)
{
    // Said at start, not when the first read or write fails: a URL of another scheme is never taken
    // for a file name, and a team database's URL is whole.
    if (!TeamDatabaseUrl::isPostgresUrl(db))
        return RecordingDatabase::notAFile(db);
    const Result<TeamDatabaseUrl> url = TeamDatabaseUrl::parse(db);
    return url ? RedisError() : url.error();
}

} // namespace

QString LaunchOptions::defaultAuditLogPath()
{
    return CommandLineConfig::defaultAuditLogPath();
}

Result<LaunchOptions> LaunchOptions::parse(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("LockScope: monitor and administer distributed locks in Redis."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(CommandLineConfig::options());
    parser.addOptions(CommandLineConfig::patternOptions(QStringLiteral("to watch")));
    parser.addOptions({
        {QStringLiteral("select"), QStringLiteral("Select this resource as soon as it is seen."),
         QStringLiteral("RESOURCE")},
        {QStringLiteral("demo"),
         QStringLiteral("Start 5 local throw-away masters with sample locks and watch them.")},
        {QStringLiteral("db"),
         QStringLiteral("The flight recording: a file, or a team database (postgresql://USER@HOST/DB, its "
                        "password from --team-db-password-env). Without masters the window reviews it "
                        "read-only; with masters it records into it."),
         QStringLiteral("FILE|URL")},
        {QStringLiteral("no-record"), QStringLiteral("Do not keep a flight recording in this run.")},
    });
    if (!parser.parse(arguments))
        return usage(parser.errorText());
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version")))
        return usage(parser.isSet(QStringLiteral("help"))
                         ? parser.helpText()
                         : QStringLiteral("lockscope ") + QCoreApplication::applicationVersion());

    LaunchOptions out;
    out.demo = parser.isSet(QStringLiteral("demo"));
    if (parser.isSet(QStringLiteral("select"))) {
        const Result<QByteArray> resource = unescapeBytes(parser.value(QStringLiteral("select")));
        if (!resource)
            return resource.error();
        out.select = *resource;
    }
    MasterOverrides overrides;
    Result<LockScopeConfig> built = CommandLineConfig::build(parser, &out.warnings, &overrides);
    if (!built)
        return built.error();
    out.config = *built;
    const bool patternsGiven = CommandLineConfig::applyPatternOptions(parser, out.config.monitor);
    out.auditLogPath = out.config.auditLogPath;
    if (out.demo) {
        if (out.auditLogPath == defaultAuditLogPath()) // nobody chose another
            out.config.auditLogPath = out.auditLogPath = AuditLog::demoPath();
        out.recordingPath = RecordingDatabase::demoPath();
    }
    out.noRecord = parser.isSet(QStringLiteral("no-record"));
    if (parser.isSet(QStringLiteral("db"))) {
        const QString db = parser.value(QStringLiteral("db"));
        if (const RedisError e = checkRecording(db); e.isError())
            return usage(QStringLiteral("--db: ") + e.message);
        if (out.demo)
            return usage(QStringLiteral("--db and --demo: the demo keeps a recording of its own"));
        if (out.hasMasters()) {
            // The window records into it (a team database: with the other recorders there).
            if (out.noRecord)
                return usage(QStringLiteral("--db names where to record: leave out --no-record"));
            out.recordingPath = db;
        } else {
            // A post-mortem review: the recording alone, nothing connected, nothing written.
            out.reviewPath = db;
            out.config.readOnly = true;
        }
    }
    out.launch = LaunchConfig(out.config, overrides);
    out.launch.setPatternsGiven(patternsGiven);
    out.launch.setScanRateGiven(parser.isSet(QStringLiteral("scan-rate")));
    return out;
}

} // namespace lockscope
