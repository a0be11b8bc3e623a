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
    const bool started = m_process.waitForStarted(10000);
    m_pid = m_process.processId();
    return started;
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

namespace {

// A sanitizer's report comes last, after whatever the program said before: a long stream keeps its
// beginning and its end.
QString headAndTail(const QByteArray& text)
{
    constexpr qsizetype part = 2000;
    if (text.size() <= 2 * part)
        return QString::fromUtf8(text);
    return QString::fromUtf8(text.left(part)) +
           QStringLiteral("\n[... %1 bytes ...]\n").arg(text.size() - 2 * part) +
           QString::fromUtf8(text.right(part));
}

} // namespace

QString LockctlProcess::describe()
{
    QString how;
    if (m_process.state() != QProcess::NotRunning)
        how = QStringLiteral("still running");
    else if (m_process.exitStatus() == QProcess::CrashExit)
        how = QStringLiteral("killed by signal %1").arg(m_process.exitCode());
    else
        how = QStringLiteral("exit code %1").arg(m_process.exitCode());
    return QStringLiteral("lockctl (pid %1, %2)\nstdout: %3\nstderr: %4")
        .arg(QString::number(m_pid), how, headAndTail(out()), headAndTail(err()));
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
    // Ended already (a crash while the test went on) or not: waitForFinished() is false for both
    // a process that had ended and one that outlived the timeout.
    m_process.waitForFinished(0);
    const bool wasRunning = m_process.state() != QProcess::NotRunning;
    if (wasRunning) {
        m_process.terminate();
        m_process.waitForFinished(timeoutMs);
    }
    out();
    err();
    const bool ended = m_process.state() == QProcess::NotRunning;
    if (wasRunning && ended && m_process.exitStatus() == QProcess::NormalExit)
        return m_process.exitCode();
    // A -1 alone said nothing of why (a sanitizer's report on abort, a hang): every caller's
    // failure carries the process's own words.
    qWarning("lockctl %s: %s",
             !wasRunning ? "had ended before SIGTERM"
             : ended     ? "ended abnormally on SIGTERM"
                         : "still runs after SIGTERM",
             qPrintable(describe()));
    return -1;
}

void LockctlProcess::kill()
{
    m_process.kill();
    m_process.waitForFinished(10000);
    out();
    err();
}

} // namespace lockscope::test
