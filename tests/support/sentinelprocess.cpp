// SPDX-License-Identifier: Apache-2.0
#include "support/sentinelprocess.h"

#include "base/localserverfiles.h"
#include "support/blockingcommand.h"
#include "support/redisserver.h"
#include "support/serverflavour.h"
#include "support/tlsmaterial.h"

#include <QTcpSocket>

namespace lockscope::test {

SentinelProcess::SentinelProcess(SentinelMonitor monitor) : m_monitor(std::move(monitor)) {}

SentinelProcess::~SentinelProcess() = default; // m_process stops the sentinel

qint64 SentinelProcess::pid() const
{
    return m_process.pid();
}

QStringList SentinelProcess::arguments() const
{
    return m_process.arguments();
}

bool SentinelProcess::isRunning() const
{
    return m_process.isRunning();
}

bool SentinelProcess::start()
{
    if (!fixtureCanLaunch(m_dir, m_monitor.tls, &m_error))
        return false;
    for (int attempt = 0; attempt < 5; ++attempt) {
        m_port = freeLoopbackPort();
        if (m_port != 0 && launch())
            return true;
    }
    return false;
}

QString SentinelProcess::configPath() const
{
    return m_dir.filePath(QStringLiteral("sentinel.conf"));
}

bool SentinelProcess::launch()
{
    // Sentinel rewrites its configuration file, so it needs one of its own; it holds the passwords,
    // so only we may read it (LocalServerFiles::writePrivate), and paths are quoted.
    const QString confPath = configPath();
    const QByteArray name = m_monitor.masterName.toUtf8();
    QByteArray text;
    if (m_monitor.tls) {
        const TlsMaterial& tls = TlsMaterial::instance();
        text = "port 0\ntls-port " + QByteArray::number(m_port) + "\ntls-cert-file " +
               LocalServerFiles::quoted(tls.serverCertFile()) + "\ntls-key-file " +
               LocalServerFiles::quoted(tls.serverKeyFile()) + "\ntls-ca-cert-file " +
               LocalServerFiles::quoted(tls.caFile()) + "\ntls-auth-clients " +
               (m_monitor.requireClientCert ? "yes" : "optional") + "\ntls-replication yes\n";
    } else {
        text = "port " + QByteArray::number(m_port) + '\n';
    }
    text += "bind 127.0.0.1\nprotected-mode no\ndaemonize no\n"
            "dir " +
            LocalServerFiles::quoted(m_dir.path()) + "\nlogfile " +
            LocalServerFiles::quoted(m_dir.filePath(QStringLiteral("sentinel.log"))) + '\n';
    if (!m_monitor.password.isEmpty()) {
        const QByteArray password = LocalServerFiles::quoted(m_monitor.password);
        text += "requirepass " + password + "\nsentinel sentinel-pass " + password + '\n';
    }
    text += "sentinel monitor " + name + " 127.0.0.1 " + QByteArray::number(m_monitor.primaryPort) + ' ' +
            QByteArray::number(m_monitor.quorum) + "\nsentinel down-after-milliseconds " + name + ' ' +
            QByteArray::number(m_monitor.downAfterMs) + "\nsentinel failover-timeout " + name + ' ' +
            QByteArray::number(m_monitor.failoverTimeoutMs) + "\nsentinel parallel-syncs " + name + " 1\n";
    if (!m_monitor.authPass.isEmpty())
        text += "sentinel auth-pass " + name + ' ' + LocalServerFiles::quoted(m_monitor.authPass) + '\n';
    if (!m_process.start({serverProgram(), confPath, text, {QStringLiteral("--sentinel")}, true}, &m_error))
        return false;
    const LocalServerProcess::Readiness readiness = m_process.waitUntilAnswering(10000, [this] {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, m_port);
        return probe.waitForConnected(200) && !command({"PING"}).isError();
    });
    if (readiness == LocalServerProcess::Readiness::Answering)
        return true;
    m_error = readiness == LocalServerProcess::Readiness::Exited
                  ? QStringLiteral("sentinel exited (port %1 taken?)").arg(m_port)
                  : QStringLiteral("sentinel on port %1 did not accept connections").arg(m_port);
    stop();
    return false;
}

void SentinelProcess::stop()
{
    m_process.stop();
}

void SentinelProcess::pause()
{
    m_process.pause();
}

void SentinelProcess::resume()
{
    m_process.resume();
}

RedisReply SentinelProcess::command(const QByteArrayList& argv) const
{
    if (m_process.isPaused())
        return pausedReply(m_port);
    return m_monitor.tls ? blockingTlsCommand(m_port, argv, m_monitor.password)
                         : blockingCommand(m_port, argv, m_monitor.password);
}

} // namespace lockscope::test
