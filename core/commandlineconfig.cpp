#include "commandlineconfig.h"

#include "configloader.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

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
        {QStringLiteral("audit-log"), QStringLiteral("Where write attempts are recorded (JSON Lines)."),
         QStringLiteral("FILE")},
    };
}

QString CommandLineConfig::defaultAuditLogPath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share");
    return dir + QStringLiteral("/lockscope/audit.jsonl");
}

Result<LockScopeConfig> CommandLineConfig::build(const QCommandLineParser& parser, QStringList* warnings)
{
    LockScopeConfig config;
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
        for (ConnectionOptions& m : config.masters)
            m.commandTimeoutMs = m.connectTimeoutMs = timeout;
    }
    TlsOptions tls;
    tls.caFile = parser.value(QStringLiteral("tls-ca"));
    tls.certFile = parser.value(QStringLiteral("tls-cert"));
    tls.keyFile = parser.value(QStringLiteral("tls-key"));
    tls.insecure = parser.isSet(QStringLiteral("tls-insecure"));
    for (const QString& file : {tls.caFile, tls.certFile, tls.keyFile})
        if (!file.isEmpty() && !QFileInfo::exists(file))
            return usage(QStringLiteral("TLS file %1 does not exist").arg(file));
    if (tls != TlsOptions())
        for (ConnectionOptions& m : config.masters)
            m.tls = tls;
    for (const QString& url : parser.values(QStringLiteral("master"))) {
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, tls, config.timeoutMs);
        if (!master)
            return master.error();
        master->replyLimits = config.replyLimits;
        config.masters << *master;
    }
    if (parser.isSet(QStringLiteral("password-env"))) {
        const QString var = parser.value(QStringLiteral("password-env"));
        const QByteArray secret = qgetenv(var.toLocal8Bit().constData());
        if (secret.isEmpty())
            return usage(QStringLiteral("environment variable %1 is not set").arg(var));
        for (ConnectionOptions& m : config.masters)
            ConfigLoader::setMasterPassword(m, QString::fromUtf8(secret));
    }
    if (parser.isSet(QStringLiteral("read-only")))
        config.readOnly = true;
    if (parser.isSet(QStringLiteral("audit-log")))
        config.auditLogPath = parser.value(QStringLiteral("audit-log"));
    if (config.auditLogPath.isEmpty())
        config.auditLogPath = defaultAuditLogPath();
    return config;
}

} // namespace lockscope
