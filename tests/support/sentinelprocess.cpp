#include "sentinelprocess.h"

#include "blockingcommand.h"
#include "redisserver.h"
#include "tlsmaterial.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTcpSocket>
#include <QThread>

#include <signal.h>
#include <sys/prctl.h>

namespace lockscope::test {

SentinelProcess::SentinelProcess(SentinelMonitor monitor) : m_monitor(std::move(monitor)) {}

SentinelProcess::~SentinelProcess()
{
    stop();
}

qint64 SentinelProcess::pid() const
{
    return m_process ? m_process->processId() : 0;
}

bool SentinelProcess::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

bool SentinelProcess::start()
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory");
        return false;
    }
    if (m_monitor.tls && !TlsMaterial::instance().isValid()) {
        m_error = TlsMaterial::instance().error();
        return false;
    }
    for (int attempt = 0; attempt < 5; ++attempt) {
        m_port = freeLoopbackPort();
        if (m_port != 0 && launch())
            return true;
    }
    return false;
}

bool SentinelProcess::launch()
{
    // Sentinel rewrites its configuration file, so it needs one of its own.
    const QString confPath = m_dir.filePath(QStringLiteral("sentinel.conf"));
    QFile conf(confPath);
    if (!conf.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        m_error = QStringLiteral("cannot write ") + confPath;
        return false;
    }
    const QByteArray name = m_monitor.masterName.toUtf8();
    QByteArray text;
    if (m_monitor.tls) {
        const TlsMaterial& tls = TlsMaterial::instance();
        text = "port 0\ntls-port " + QByteArray::number(m_port) + "\ntls-cert-file " +
               tls.serverCertFile().toUtf8() + "\ntls-key-file " + tls.serverKeyFile().toUtf8() +
               "\ntls-ca-cert-file " + tls.caFile().toUtf8() + "\ntls-auth-clients " +
               (m_monitor.requireClientCert ? "yes" : "optional") + "\ntls-replication yes\n";
    } else {
        text = "port " + QByteArray::number(m_port) + '\n';
    }
    text += "bind 127.0.0.1\nprotected-mode no\ndaemonize no\n"
            "dir " +
            m_dir.path().toUtf8() + "\nlogfile " + m_dir.filePath(QStringLiteral("sentinel.log")).toUtf8() +
            "\nsentinel monitor " + name + " 127.0.0.1 " + QByteArray::number(m_monitor.primaryPort) + ' ' +
            QByteArray::number(m_monitor.quorum) + "\nsentinel down-after-milliseconds " + name + ' ' +
            QByteArray::number(m_monitor.downAfterMs) + "\nsentinel failover-timeout " + name + ' ' +
            QByteArray::number(m_monitor.failoverTimeoutMs) + "\nsentinel parallel-syncs " + name + " 1\n";
    if (!m_monitor.authPass.isEmpty())
        text += "sentinel auth-pass " + name + ' ' + m_monitor.authPass.toUtf8() + '\n';
    conf.write(text);
    conf.close();

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->start(QStringLiteral("redis-server"), {confPath, QStringLiteral("--sentinel")});
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("redis-server --sentinel did not start: ") + m_process->errorString();
        m_process.reset();
        return false;
    }
    const QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        if (m_process->waitForFinished(1) || m_process->state() != QProcess::Running) {
            m_error = QStringLiteral("sentinel exited (port %1 taken?)").arg(m_port);
            m_process.reset();
            return false;
        }
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, m_port);
        if (probe.waitForConnected(200) && !command({"PING"}).isError())
            return true;
        QThread::msleep(20);
    }
    m_error = QStringLiteral("sentinel on port %1 did not accept connections").arg(m_port);
    stop();
    return false;
}

void SentinelProcess::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(pid_t(m_process->processId()), SIGKILL);
        m_process->waitForFinished(5000);
    }
    m_process.reset();
}

void SentinelProcess::pause()
{
    if (isRunning())
        ::kill(pid_t(m_process->processId()), SIGSTOP);
}

void SentinelProcess::resume()
{
    if (isRunning())
        ::kill(pid_t(m_process->processId()), SIGCONT);
}

RedisReply SentinelProcess::command(const QByteArrayList& argv) const
{
    return m_monitor.tls ? blockingTlsCommand(m_port, argv) : blockingCommand(m_port, argv);
}

} // namespace lockscope::test
