// SPDX-License-Identifier: Apache-2.0
#include "support/lockctlprocess.h"

#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/timebound.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTest>

#include <csignal>
#include <sys/prctl.h>

namespace lockscope::test {

LockctlProcess::~LockctlProcess()
{
    if (m_process.state() != QProcess::NotRunning)
        kill();
}

bool LockctlProcess::start(const QStringList& args)
{
    m_process.setProcessEnvironment(testPasswordEnvironment());
    // A service runs until told to stop: if the test process dies first, it goes too.
    m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process.start(lockctlPath(), args);
    m_process.closeWriteChannel();
    return m_process.waitForStarted(10000);
}

QByteArray LockctlProcess::out()
{
    m_out += m_process.readAllStandardOutput();
    return m_out;
}

QByteArray LockctlProcess::err()
{
    m_err += m_process.readAllStandardError();
    return m_err;
}

QString LockctlProcess::describe()
{
    return QStringLiteral("stdout: %1\nstderr: %2")
        .arg(QString::fromUtf8(out().left(2000)), QString::fromUtf8(err().left(2000)));
}

bool LockctlProcess::waitForOutput(const QByteArray& text, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!out().contains(text)) {
        if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
            return out().contains(text);
        m_process.waitForReadyRead(50);
    }
    return true;
}

int LockctlProcess::waitForExit(int timeoutMs, const std::function<void()>& step)
{
    const QDeadlineTimer deadline(upperBoundMs(timeoutMs)); // "did not hang": scaled
    while (m_process.state() != QProcess::NotRunning && !deadline.hasExpired()) {
        m_process.waitForReadyRead(50);
        out();
        if (step)
            step();
    }
    if (!m_process.waitForFinished(0) && m_process.state() != QProcess::NotRunning)
        return -1;
    out();
    err();
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

namespace {

// A "Vm...:" line of /proc/PID/status in KiB; 0 when the process is gone.
qint64 statusKiB(const QProcess& process, const QByteArray& field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(process.processId()));
    if (process.state() != QProcess::Running || !status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(field.size()).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

} // namespace

qint64 LockctlProcess::peakRssKiB() const
{
    return statusKiB(m_process, "VmHWM:");
}

qint64 LockctlProcess::rssKiB() const
{
    return statusKiB(m_process, "VmRSS:");
}

int LockctlProcess::terminate(int timeoutMs)
{
    m_process.terminate();
    if (!m_process.waitForFinished(timeoutMs))
        return -1;
    out();
    err();
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

void LockctlProcess::kill()
{
    m_process.kill();
    m_process.waitForFinished(10000);
    out();
    err();
}

} // namespace lockscope::test
