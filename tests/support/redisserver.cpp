// SPDX-License-Identifier: Apache-2.0
#include "support/redisserver.h"

#include "base/localserverfiles.h"
#include "support/blockingcommand.h"
#include "support/serverflavour.h"
#include "support/tlsmaterial.h"

#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>

namespace lockscope::test {

quint16 freeLoopbackPort()
{
    return LocalServerProcess::freeLoopbackPort();
}

bool fixtureCanLaunch(const QTemporaryDir& dir, bool tls, QString* error)
{
    if (!dir.isValid()) {
        *error = QStringLiteral("no temporary directory");
        return false;
    }
    if (tls && !TlsMaterial::instance().isValid()) {
        *error = TlsMaterial::instance().error();
        return false;
    }
    return true;
}

const QString& testPassword()
{
    static const QString password = LocalServerFiles::newPassword();
    return password;
}

QString distinctTestPassword(const QString& label)
{
    return label + QLatin1Char('-') + LocalServerFiles::newPassword().left(16);
}

QProcessEnvironment testPasswordEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(testPasswordVar), testPassword());
    return env;
}

RedisServer::RedisServer(RedisServerOptions options) : m_options(std::move(options))
{
    if (m_options.withoutPassword)
        m_options.password.clear();
    else if (m_options.password.isEmpty())
        m_options.password = testPassword();
}

RedisServer::~RedisServer() = default; // m_process stops the server

qint64 RedisServer::pid() const
{
    return m_process.pid();
}

QStringList RedisServer::arguments() const
{
    return m_process.arguments();
}

bool RedisServer::isRunning() const
{
    return m_process.isRunning();
}

QString RedisServer::socketPath() const
{
    return m_options.unixSocket ? m_dir.filePath(QStringLiteral("redis.sock")) : QString();
}

QString RedisServer::configPath() const
{
    return m_dir.filePath(QStringLiteral("redis.conf"));
}

QByteArray RedisServer::config()
{
    // Paths quoted (a temporary directory may hold spaces), secrets only here: the file is the
    // owner's alone, where the command line is anyone's (ps, /proc/<pid>/cmdline).
    m_logPath = m_dir.filePath(QStringLiteral("redis-%1.log").arg(m_generation++));
    QByteArray text = "dir " + LocalServerFiles::quoted(m_dir.path()) + "\nlogfile " +
                      LocalServerFiles::quoted(m_logPath) + '\n';
    // A replica's full sync starts at once: Redis 7 waits 5 s by default (repl-diskless-sync-delay) for
    // more replicas to join the transfer, which every replica of a cluster or Sentinel group (and every
    // old primary rejoining after a failover) spent waiting. Nothing here tests that delay.
    text += "repl-diskless-sync-delay 0\n";
    if (!m_options.password.isEmpty()) {
        // masterauth too: a replica (SentinelGroup, a cluster, a test's REPLICAOF) logs in to its
        // primary with the same password.
        const QByteArray password = LocalServerFiles::quoted(m_options.password);
        text += "requirepass " + password + "\nmasterauth " + password + '\n';
    }
    if (!m_options.aclUser.isEmpty()) {
        text += "user " + LocalServerFiles::quoted(m_options.aclUser) + " on " +
                LocalServerFiles::quoted(QLatin1Char('>') + m_options.aclPassword);
        for (const QString& rule : m_options.aclRules.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            text += ' ' + LocalServerFiles::quoted(rule);
        text += '\n';
    }
    if (m_options.unixSocket)
        text += "unixsocket " + LocalServerFiles::quoted(socketPath()) + "\nunixsocketperm 700\n";
    return text;
}

bool RedisServer::start()
{
    if (!fixtureCanLaunch(m_dir, m_options.tls, &m_error))
        return false;
    for (int attempt = 0; attempt < 5; ++attempt) {
        m_port = freeLoopbackPort();
        m_adminPort =
            m_options.tls && !m_options.tlsOnly
                ? LocalServerProcess::distinctPort(freeLoopbackPort, {m_port}) // neither is bound yet
                : m_port;
        if (m_port != 0 && m_adminPort != 0 && launch())
            return true;
    }
    return false;
}

bool RedisServer::restart()
{
    stop();
    return launch();
}

bool RedisServer::launch()
{
    // The configuration file first: the arguments after it add to it.
    QStringList args{QStringLiteral("--bind"),
                     QStringLiteral("127.0.0.1 ::1"),
                     QStringLiteral("--port"),
                     m_options.tls && m_options.tlsOnly ? QStringLiteral("0") : QString::number(m_adminPort),
                     QStringLiteral("--save"),
                     QString(),
                     QStringLiteral("--appendonly"),
                     QStringLiteral("no"),
                     QStringLiteral("--daemonize"),
                     QStringLiteral("no"),
                     QStringLiteral("--protected-mode"),
                     QStringLiteral("no"),
                     QStringLiteral("--enable-debug-command"),
                     QStringLiteral("local")};
    // IPv6 loopback may be missing in a sandbox; Redis then fails to bind, so only ask when it exists.
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHostIPv6, 0))
            args[1] = QStringLiteral("127.0.0.1");
    }
    if (m_options.tls) {
        const TlsMaterial& tls = TlsMaterial::instance();
        args << QStringLiteral("--tls-port") << QString::number(m_port) << QStringLiteral("--tls-cert-file")
             << tls.serverCertFile() << QStringLiteral("--tls-key-file") << tls.serverKeyFile()
             << QStringLiteral("--tls-ca-cert-file") << tls.caFile() << QStringLiteral("--tls-auth-clients")
             << (m_options.requireClientCert ? QStringLiteral("yes") : QStringLiteral("optional"));
        if (m_options.tlsOnly)
            args << QStringLiteral("--tls-replication") << QStringLiteral("yes");
    }
    if (m_options.notifications)
        args << QStringLiteral("--notify-keyspace-events") << QStringLiteral("KA");
    args << m_options.extraArgs;

    if (!m_process.start({serverProgram(), configPath(), config(), args, true}, &m_error))
        return false;
    const LocalServerProcess::Readiness readiness = m_process.waitUntilAnswering(10000, [this] {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, m_adminPort);
        if (!probe.waitForConnected(200))
            return false;
        if (m_options.tls) {
            QTcpSocket tlsProbe;
            tlsProbe.connectToHost(QHostAddress::LocalHost, m_port);
            if (!tlsProbe.waitForConnected(200))
                return false;
        }
        // An answer of the server's own, an error included (a password may be refused by the ACLs a
        // test sets up), not the fixture's word that no answer came: a cluster node whose bus port
        // (port + 10000) is taken accepts connections for a moment, then exits without answering.
        const RedisReply pong = command({"PING"});
        const bool answered =
            !pong.isError() || (!m_options.password.isEmpty() && !pong.string.startsWith("fixture: "));
        // And the answer is our server's (sanitizer pass of fresh-clone run 19: every set-up command
        // of a test failed at once, as against a server of another test, with its own password).
        return answered && logSaysReady();
    });
    if (readiness == LocalServerProcess::Readiness::Answering)
        return true;
    m_error =
        readiness == LocalServerProcess::Readiness::Exited
            ? QStringLiteral("%1 exited (port %2 taken?)").arg(serverProgram()).arg(m_port)
            : QStringLiteral("%1 on port %2 did not accept connections").arg(serverProgram()).arg(m_port);
    stop();
    return false;
}

bool RedisServer::logSaysReady() const
{
    QFile log(m_logPath);
    // Redis 7.0 "Ready to accept connections", Valkey 8 "... tcp": written once every listener is bound.
    return log.open(QIODevice::ReadOnly) && log.readAll().contains("Ready to accept connections");
}

void RedisServer::stop()
{
    m_process.stop();
}

void RedisServer::pause()
{
    m_process.pause();
}

void RedisServer::resume()
{
    m_process.resume();
}

QString RedisServer::url(bool withSecret) const
{
    const QString scheme = m_options.tls ? QStringLiteral("rediss") : QStringLiteral("redis");
    QString auth;
    if (!m_options.aclUser.isEmpty())
        auth = m_options.aclUser + (withSecret ? QLatin1Char(':') + m_options.aclPassword : QString()) +
               QLatin1Char('@');
    else if (!m_options.password.isEmpty() && withSecret)
        auth = QLatin1Char(':') + m_options.password + QLatin1Char('@');
    const QString host = m_options.tls ? QStringLiteral("localhost") : QStringLiteral("127.0.0.1");
    return QStringLiteral("%1://%2%3:%4").arg(scheme, auth, host).arg(m_port);
}

ConnectionOptions RedisServer::connectionOptions(int timeoutMs) const
{
    ConnectionOptions options;
    options.url = *RedisUrl::parse(url(true));
    options.commandTimeoutMs = timeoutMs;
    options.connectTimeoutMs = timeoutMs;
    if (m_options.tls)
        options.tls.caFile = TlsMaterial::instance().caFile();
    return options;
}

QProcessEnvironment RedisServer::cliEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_options.password.isEmpty())
        env.insert(QStringLiteral("REDISCLI_AUTH"), m_options.password);
    return env;
}

RedisReply RedisServer::command(const QByteArrayList& argv) const
{
    if (m_process.isPaused())
        return pausedReply(m_port);
    if (m_options.tls && m_options.tlsOnly)
        return blockingTlsCommand(m_port, argv, m_options.password);
    return blockingCommand(m_adminPort, argv, m_options.password);
}

QByteArray RedisServer::runId() const
{
    const RedisReply info = command({"INFO", "server"});
    const qsizetype at = info.string.indexOf("run_id:");
    if (at < 0)
        return {};
    const qsizetype end = info.string.indexOf('\r', at);
    return info.string.mid(at + 7, end - at - 7);
}

} // namespace lockscope::test
