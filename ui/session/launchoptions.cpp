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
        {QStringLiteral("db"), QStringLiteral("Review this flight recording read-only, without any master."),
         QStringLiteral("FILE")},
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
        // A post-mortem review: the recording alone, nothing connected, nothing written.
        if (out.hasMasters() || out.demo)
            return usage(QStringLiteral("--db reviews a recording without any master: leave out -m, "
                                        "--config and --demo"));
        out.reviewPath = parser.value(QStringLiteral("db"));
        if (TeamDatabaseUrl::isPostgresUrl(out.reviewPath))
            return usage(
                QStringLiteral("the window reviews a recording file; a recording in a team database is "
                               "read with lockctl history, incidents and stats (--db postgresql://…)"));
        out.config.readOnly = true;
    }
    out.launch = LaunchConfig(out.config, overrides);
    out.launch.setPatternsGiven(patternsGiven);
    out.launch.setScanRateGiven(parser.isSet(QStringLiteral("scan-rate")));
    return out;
}

} // namespace lockscope
