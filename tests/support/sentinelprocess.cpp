#include "sentinelprocess.h"

#include "base/localserverfiles.h"
#include "blockingcommand.h"
#include "redisserver.h"
#include "tlsmaterial.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTcpSocket>
#include <QThread>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>

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

QStringList SentinelProcess::arguments() const
{
    return m_process ? m_process->arguments() : QStringList();
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
    if (!LocalServerFiles::writePrivate(confPath, text, &m_error))
        return false;

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    // umask 077: what the server writes itself (a sentinel's or a cluster node's rewritten
    // configuration, with the passwords in it) is ours alone too.
    m_process->setChildProcessModifier([] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::umask(077);
    });
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
    return m_monitor.tls ? blockingTlsCommand(m_port, argv, m_monitor.password)
                         : blockingCommand(m_port, argv, m_monitor.password);
}

} // namespace lockscope::test
