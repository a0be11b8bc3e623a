#include "launchoptions.h"

#include "bytesdisplay.h"
#include "configloader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
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

QString LaunchOptions::defaultAuditLogPath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share");
    return dir + QStringLiteral("/lockscope/audit.jsonl");
}

Result<LaunchOptions> LaunchOptions::parse(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("LockScope: monitor and administer distributed locks in Redis."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {{QStringLiteral("m"), QStringLiteral("master")},
         QStringLiteral("A master URL (repeat for Redlock): redis://[user[:password]@]host[:port][/db], "
                        "rediss://..., unix:///path"),
         QStringLiteral("URL")},
        {QStringLiteral("config"), QStringLiteral("JSON configuration file, as lockctl reads it."),
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
         QStringLiteral("Take the masters' password from this environment variable."), QStringLiteral("VAR")},
        {QStringLiteral("read-only"),
         QStringLiteral("Refuse every write; the window shows a read-only badge.")},
        {QStringLiteral("audit-log"), QStringLiteral("Where write attempts are recorded (JSON Lines)."),
         QStringLiteral("FILE")},
        {QStringLiteral("pattern"), QStringLiteral("Key glob to watch (repeatable)."),
         QStringLiteral("GLOB")},
        {QStringLiteral("select"), QStringLiteral("Select this resource as soon as it is seen."),
         QStringLiteral("RESOURCE")},
        {QStringLiteral("demo"),
         QStringLiteral("Start 5 local throw-away masters with sample locks and watch them.")},
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
    if (parser.isSet(QStringLiteral("config"))) {
        Result<LockScopeConfig> loaded =
            ConfigLoader::fromFile(parser.value(QStringLiteral("config")), &out.warnings);
        if (!loaded)
            return loaded.error();
        out.config = *loaded;
    }
    if (parser.isSet(QStringLiteral("timeout-ms"))) {
        bool ok = false;
        const int timeout = parser.value(QStringLiteral("timeout-ms")).toInt(&ok);
        if (!ok || timeout <= 0 || timeout > 600000)
            return usage(QStringLiteral("--timeout-ms must be a whole number from 1 to 600000"));
        out.config.timeoutMs = timeout;
        for (ConnectionOptions& m : out.config.masters)
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
        for (ConnectionOptions& m : out.config.masters)
            m.tls = tls;
    for (const QString& url : parser.values(QStringLiteral("master"))) {
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, tls, out.config.timeoutMs);
        if (!master)
            return master.error();
        out.config.masters << *master;
    }
    if (parser.isSet(QStringLiteral("password-env"))) {
        const QString var = parser.value(QStringLiteral("password-env"));
        const QByteArray secret = qgetenv(var.toLocal8Bit().constData());
        if (secret.isEmpty())
            return usage(QStringLiteral("environment variable %1 is not set").arg(var));
        for (ConnectionOptions& m : out.config.masters)
            m.url.setPassword(QString::fromUtf8(secret));
    }
    if (parser.isSet(QStringLiteral("pattern"))) {
        out.config.monitor.patterns.clear();
        for (const QString& p : parser.values(QStringLiteral("pattern")))
            out.config.monitor.patterns << p.toUtf8();
    }
    if (parser.isSet(QStringLiteral("read-only")))
        out.config.readOnly = true;
    out.auditLogPath = parser.isSet(QStringLiteral("audit-log")) ? parser.value(QStringLiteral("audit-log"))
                       : !out.config.auditLogPath.isEmpty()      ? out.config.auditLogPath
                                                                 : defaultAuditLogPath();
    return out;
}

} // namespace lockscope
