// SPDX-License-Identifier: Apache-2.0
#include "config/commandlineconfig.h"

#include "audit/auditlog.h"
#include "config/configloader.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace lockscope {

namespace {

RedisError usage(const QString& message)
{
    return RedisError(ErrorKind::InvalidArgument, QString(), message);
}

} // namespace

QList<QCommandLineOption> CommandLineConfig::options()
{
    return {
        {{QStringLiteral("m"), QStringLiteral("master")},
         QStringLiteral(
             "A master URL (repeat for Redlock): redis://[user[:password]@]host[:port][/db], rediss://..., "
             "unix:///path, a Sentinel group: redis-sentinel://host:port[,host:port...]/<master-name>, or a "
             "Redis Cluster: redis-cluster://host:port[,host:port...] (rediss-... for TLS)"),
         QStringLiteral("URL")},
        {QStringLiteral("config"),
         QStringLiteral("JSON configuration file (masters, patterns, TLS, owner rules)."),
         QStringLiteral("FILE")},
        {QStringLiteral("timeout-ms"), QStringLiteral("Per-master command timeout (default 2000)."),
         QStringLiteral("N")},
        {QStringLiteral("tls-ca"), QStringLiteral("CA bundle for rediss:// masters."),
         QStringLiteral("FILE")},
        {QStringLiteral("tls-cert"), QStringLiteral("Client certificate for rediss:// masters."),
         QStringLiteral("FILE")},
        {QStringLiteral("tls-key"), QStringLiteral("Client private key for rediss:// masters."),
         QStringLiteral("FILE")},
        {QStringLiteral("tls-insecure"),
         QStringLiteral("Do not verify the server's certificate (testing only).")},
        {QStringLiteral("password-env"),
         QStringLiteral("Take the masters' password from this environment variable instead of the URL."),
         QStringLiteral("VAR")},
        {QStringLiteral("read-only"), QStringLiteral("Refuse every write.")},
        {QStringLiteral("scan-rate"),
         QStringLiteral("How fast scanning may go: auto (default: paced so that the server's other clients "
                        "do not notice), a number of keys a second (at most that, slower when the server "
                        "slows), or max (the first pass at full speed)."),
         QStringLiteral("RATE")},
        {QStringLiteral("audit-log"),
         QStringLiteral("Where write attempts are recorded (JSON Lines; default "
                        "$XDG_STATE_HOME/lockscope/audit.jsonl)."),
         QStringLiteral("FILE")},
        {QStringLiteral("allow-shared-audit-log"),
         QStringLiteral("Write to an audit log that group or others can read (refused otherwise).")},
        {QStringLiteral("team-db"),
         QStringLiteral("The team's PostgreSQL database (postgresql://USER@HOST[:PORT]/DBNAME): every write "
                        "is audited there too, and `audit` reads it."),
         QStringLiteral("URL")},
        {QStringLiteral("team-db-password-env"),
         QStringLiteral("Take the PostgreSQL password (of --team-db, or of a --db postgresql://… recording) "
                        "from this environment variable (default: PGPASSWORD or ~/.pgpass)."),
         QStringLiteral("VAR")},
    };
}

QList<QCommandLineOption> CommandLineConfig::patternOptions(const QString& what)
{
    return {{QStringLiteral("pattern"),
             QStringLiteral("Key glob %1; every matching key is a lock (repeatable; default lock:*, "
                            "lock.*, locks:*, *:lock, *.lock, redlock:*, mutex:*, semaphore:*, and "
                            "--discover '*lock*').")
                 .arg(what),
             QStringLiteral("GLOB")},
            {QStringLiteral("discover"),
             QStringLiteral("Key glob %1, finding the locks among the matching keys: only lock libraries' "
                            "formats are shown, other keys are not locks (repeatable).")
                 .arg(what),
             QStringLiteral("GLOB")},
            {QStringLiteral("fence"),
             QStringLiteral("Key glob of fencing counters (INCR keys each grant raises) %1 beside the "
                            "patterns in use; one that goes down is a fencing regression (repeatable; "
                            "Redisson's redisson_lock_token:{name} counters are known by name).")
                 .arg(what),
             QStringLiteral("GLOB")}};
}

bool CommandLineConfig::applyPatternOptions(const QCommandLineParser& parser, MonitorSettings& monitor)
{
    const QStringList locks = parser.values(QStringLiteral("pattern"));
    const QStringList discover = parser.values(QStringLiteral("discover"));
    const QStringList fences = parser.values(QStringLiteral("fence"));
    const bool replaced = !locks.isEmpty() || !discover.isEmpty();
    if (replaced)
        monitor.patterns.clear();
    for (const QString& p : locks)
        monitor.patterns << ScanPattern(p.toUtf8(), PatternMode::Locks);
    for (const QString& p : discover)
        monitor.patterns << ScanPattern(p.toUtf8(), PatternMode::Discover);
    for (const QString& p : fences)
        monitor.patterns << ScanPattern(p.toUtf8(), PatternMode::Fencing);
    return replaced || !fences.isEmpty();
}

QString CommandLineConfig::defaultAuditLogPath()
{
    return AuditLog::defaultPath();
}

Result<LockScopeConfig> CommandLineConfig::build(const QCommandLineParser& parser, QStringList* warnings,
                                                 MasterOverrides* overrides)
{
    LockScopeConfig config;
    MasterOverrides given;
    if (parser.isSet(QStringLiteral("config"))) {
        Result<LockScopeConfig> loaded =
            ConfigLoader::fromFile(parser.value(QStringLiteral("config")), warnings);
        if (!loaded)
            return loaded.error();
        config = *loaded;
    }
    if (parser.isSet(QStringLiteral("timeout-ms"))) {
        bool ok = false;
        const int timeout = parser.value(QStringLiteral("timeout-ms")).toInt(&ok);
        if (!ok || timeout <= 0 || timeout > 600000)
            return usage(QStringLiteral("--timeout-ms must be a whole number from 1 to 600000"));
        config.timeoutMs = timeout;
        given.timeoutMs = timeout;
    }
    if (parser.isSet(QStringLiteral("scan-rate"))) {
        const Result<ScanRate> rate = ScanRate::parse(parser.value(QStringLiteral("scan-rate")));
        if (!rate)
            return usage(QStringLiteral("--scan-rate: ") + rate.error().message);
        config.monitor.scanRate = *rate;
    }
    TlsOptions tls;
    tls.caFile = parser.value(QStringLiteral("tls-ca"));
    tls.certFile = parser.value(QStringLiteral("tls-cert"));
    tls.keyFile = parser.value(QStringLiteral("tls-key"));
    tls.insecure = parser.isSet(QStringLiteral("tls-insecure"));
    for (const QString& file : {tls.caFile, tls.certFile, tls.keyFile})
        if (!file.isEmpty() && !QFileInfo::exists(file))
            return usage(QStringLiteral("TLS file %1 does not exist").arg(file));
    given.caFile = tls.caFile;
    given.certFile = tls.certFile;
    given.keyFile = tls.keyFile;
    given.insecure = tls.insecure;
    // The command line wins over the file, one setting at a time (a file's serverName stays).
    for (ConnectionOptions& m : config.masters)
        given.applyTo(m);
    bool passwordOnCommandLine = false;
    for (const QString& url : parser.values(QStringLiteral("master"))) {
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, tls, config.timeoutMs);
        if (!master)
            return master.error();
        master->replyLimits = config.replyLimits;
        passwordOnCommandLine = passwordOnCommandLine || !master->url.password().isEmpty() ||
                                (master->topology && !master->topology->password().isEmpty());
        config.masters << *master;
    }
    if (passwordOnCommandLine && warnings)
        *warnings << QStringLiteral("a password in a -m URL is visible to other users in the process list; "
                                    "use --password-env VAR or a --config file instead");
    if (parser.isSet(QStringLiteral("password-env"))) {
        const QString var = parser.value(QStringLiteral("password-env"));
        const QByteArray secret = qgetenv(var.toLocal8Bit().constData());
        if (secret.isEmpty())
            return usage(QStringLiteral("environment variable %1 is not set").arg(var));
        for (ConnectionOptions& m : config.masters)
            ConfigLoader::setMasterPassword(m, QString::fromUtf8(secret));
        config.passwordEnvVars << var;
    }
    if (parser.isSet(QStringLiteral("read-only")))
        config.readOnly = true;
    if (parser.isSet(QStringLiteral("allow-shared-audit-log")))
        config.allowSharedAuditLog = true;
    if (parser.isSet(QStringLiteral("audit-log")))
        config.auditLogPath = parser.value(QStringLiteral("audit-log"));
    if (parser.isSet(QStringLiteral("team-db")) || parser.isSet(QStringLiteral("team-db-password-env")))
        if (const RedisError e =
                ConfigLoader::setTeamDatabase(config, parser.value(QStringLiteral("team-db")),
                                              parser.value(QStringLiteral("team-db-password-env")));
            e.isError())
            return usage(e.message);
    if (config.auditLogPath.isEmpty())
        config.auditLogPath = defaultAuditLogPath();
    if (overrides)
        *overrides = given;
    return config;
}

} // namespace lockscope
