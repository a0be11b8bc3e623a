#include "clicontext.h"

#include "configloader.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

using namespace lockscope;

namespace lockctl {

QList<QCommandLineOption> CliContext::globalOptions()
{
    return {
        {{QStringLiteral("m"), QStringLiteral("master")},
         QStringLiteral(
             "A master URL (repeat for Redlock): redis://[user[:password]@]host[:port][/db], rediss://..., "
             "unix:///path"),
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
        {QStringLiteral("json"), QStringLiteral("Machine-readable output.")},
        {QStringLiteral("read-only"), QStringLiteral("Refuse every write (exit code 4).")},
        {QStringLiteral("audit-log"), QStringLiteral("Where write attempts are recorded (JSON Lines)."),
         QStringLiteral("FILE")},
    };
}

int CliContext::fail(int code, const QString& message)
{
    m_err << "lockctl: " << message << Qt::endl;
    return code;
}

int CliContext::configure(const QCommandLineParser& parser)
{
    m_json = parser.isSet(QStringLiteral("json"));
    QStringList warnings;
    if (parser.isSet(QStringLiteral("config"))) {
        Result<LockScopeConfig> loaded =
            ConfigLoader::fromFile(parser.value(QStringLiteral("config")), &warnings);
        if (!loaded)
            return fail(UsageError, loaded.error().message);
        m_config = *loaded;
    }
    for (const QString& w : warnings)
        m_err << "lockctl: warning: " << w << Qt::endl;

    if (parser.isSet(QStringLiteral("timeout-ms"))) {
        bool ok = false;
        const int timeout = parser.value(QStringLiteral("timeout-ms")).toInt(&ok);
        if (!ok || timeout <= 0 || timeout > 600000)
            return fail(UsageError, QStringLiteral("--timeout-ms must be a whole number from 1 to 600000"));
        m_config.timeoutMs = timeout;
        for (ConnectionOptions& m : m_config.masters)
            m.commandTimeoutMs = m.connectTimeoutMs = timeout;
    }
    TlsOptions tls;
    tls.caFile = parser.value(QStringLiteral("tls-ca"));
    tls.certFile = parser.value(QStringLiteral("tls-cert"));
    tls.keyFile = parser.value(QStringLiteral("tls-key"));
    tls.insecure = parser.isSet(QStringLiteral("tls-insecure"));
    for (const QString& file : {tls.caFile, tls.certFile, tls.keyFile})
        if (!file.isEmpty() && !QFileInfo::exists(file))
            return fail(UsageError, QStringLiteral("TLS file %1 does not exist").arg(file));
    const bool cliTls = tls != TlsOptions();
    if (cliTls)
        for (ConnectionOptions& m : m_config.masters)
            m.tls = tls;

    for (const QString& url : parser.values(QStringLiteral("master"))) {
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, tls, m_config.timeoutMs);
        if (!master)
            return fail(UsageError, master.error().message);
        m_config.masters << *master;
    }
    if (parser.isSet(QStringLiteral("password-env"))) {
        const QString var = parser.value(QStringLiteral("password-env"));
        const QByteArray secret = qgetenv(var.toLocal8Bit().constData());
        if (secret.isEmpty())
            return fail(UsageError, QStringLiteral("environment variable %1 is not set").arg(var));
        for (ConnectionOptions& m : m_config.masters)
            m.url.setPassword(QString::fromUtf8(secret));
    }
    if (m_config.masters.isEmpty())
        return fail(UsageError, QStringLiteral("no masters: give -m URL (repeatable) or --config FILE"));
    if (parser.isSet(QStringLiteral("read-only")))
        m_config.readOnly = true;
    if (parser.isSet(QStringLiteral("audit-log")))
        m_config.auditLogPath = parser.value(QStringLiteral("audit-log"));
    for (ConnectionOptions& m : m_config.masters) {
        m.healthIntervalMs = 0; // a one-shot tool has no use for background pings
        m.autoReconnect = false;
    }
    return Done;
}

QString CliContext::auditLogPath() const
{
    if (!m_config.auditLogPath.isEmpty())
        return m_config.auditLogPath;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share/lockscope");
    return dir + QStringLiteral("/audit.jsonl");
}

MasterSet& CliContext::openMasters()
{
    if (!m_masters) {
        m_masters = std::make_unique<MasterSet>(m_config.masters);
        m_masters->open();
        // Each master settles within its own connect timeout; a little slack for the event loop.
        int longest = 0;
        for (const ConnectionOptions& m : m_config.masters)
            longest = qMax(longest, m.connectTimeoutMs);
        waitUntil([this] { return m_masters->isSettled(); }, longest + 500);
    }
    return *m_masters;
}

bool CliContext::waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    }
    return true;
}

} // namespace lockctl
