// SPDX-License-Identifier: Apache-2.0
#include "base/localserverprocess.h"

#include "base/localserverfiles.h"

#include <QDeadlineTimer>
#include <QTcpServer>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>
#include <sys/stat.h>

namespace lockscope {

LocalServerProcess::LocalServerProcess(QObject* parent) : QObject(parent) {}

LocalServerProcess::~LocalServerProcess()
{
    stop();
}

quint16 LocalServerProcess::freeLoopbackPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

quint16 LocalServerProcess::distinctPort(const std::function<quint16()>& source,
                                         const QList<quint16>& handedOut)
{
    for (int attempt = 0; attempt < 16; ++attempt) {
        const quint16 port = source();
        if (port == 0 || !handedOut.contains(port))
            return port;
    }
    return 0;
}

bool LocalServerProcess::start(const Launch& launch, QString* error)
{
    stop();
    if (!LocalServerFiles::writePrivate(launch.configPath, launch.config, error))
        return false;
    auto process = std::make_unique<QProcess>();
    process->setProgram(launch.program);
    process->setArguments(QStringList{launch.configPath} + launch.arguments);
    process->setStandardOutputFile(QProcess::nullDevice());
    if (launch.forwardErrors)
        process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    else
        process->setStandardErrorFile(QProcess::nullDevice());
    process->setChildProcessModifier([] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::umask(077);
    });
    connect(process.get(), &QProcess::finished, this, &LocalServerProcess::exited);
    // fork+exec: reports at once whether the program exists; whether the server answers comes later.
    process->start();
    if (!process->waitForStarted(5000)) {
        *error = QStringLiteral("cannot run %1: %2").arg(launch.program, process->errorString());
        process->disconnect(this);
        return false;
    }
    m_process = std::move(process);
    m_paused = false;
    return true;
}

LocalServerProcess::Readiness LocalServerProcess::waitUntilAnswering(int timeoutMs,
                                                                     const std::function<bool()>& answers)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        // QProcess only notices an exit while it waits or runs an event loop.
        if (!m_process || m_process->waitForFinished(1) || m_process->state() != QProcess::Running)
            return Readiness::Exited;
        if (answers())
            return Readiness::Answering;
        QThread::msleep(20);
    }
    return Readiness::TimedOut;
}

void LocalServerProcess::stop()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    // Only the process this object started, by its own pid.
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(pid_t(m_process->processId()), SIGKILL);
        m_process->waitForFinished(5000);
    }
    m_process.reset();
}

void LocalServerProcess::pause()
{
    if (isRunning())
        m_paused = ::kill(pid_t(m_process->processId()), SIGSTOP) == 0;
}

void LocalServerProcess::resume()
{
    if (isRunning())
        ::kill(pid_t(m_process->processId()), SIGCONT);
    m_paused = false;
}

bool LocalServerProcess::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

qint64 LocalServerProcess::pid() const
{
    return m_process ? m_process->processId() : 0;
}

QStringList LocalServerProcess::arguments() const
{
    return m_process ? m_process->arguments() : QStringList();
}

} // namespace lockscope
