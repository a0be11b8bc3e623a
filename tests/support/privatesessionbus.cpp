// SPDX-License-Identifier: Apache-2.0
#include "support/privatesessionbus.h"

#include <QDeadlineTimer>
#include <QStandardPaths>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>

namespace lockscope::test {

namespace {

void dieWithParent()
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
}

} // namespace

PrivateSessionBus::~PrivateSessionBus()
{
    stop(m_bus);
}

std::unique_ptr<QProcess> PrivateSessionBus::childProcess()
{
    auto process = std::make_unique<QProcess>();
    process->setChildProcessModifier(dieWithParent);
    return process;
}

void PrivateSessionBus::stop(std::unique_ptr<QProcess>& process)
{
    if (!process)
        return;
    if (process->state() != QProcess::NotRunning) {
        process->kill();
        process->waitForFinished(5000);
    }
    process.reset();
}

bool PrivateSessionBus::start()
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
    if (program.isEmpty()) {
        m_error = QStringLiteral("dbus-daemon is not installed (scripts/install-deps.sh --tests)");
        return false;
    }
    m_bus = childProcess();
    // It complains that it may not raise its file limit, which is harmless and only confuses logs.
    m_bus->setStandardErrorFile(QProcess::nullDevice());
    m_bus->start(program, {QStringLiteral("--session"), QStringLiteral("--nofork"),
                           QStringLiteral("--print-address=1")});
    if (!m_bus->waitForStarted(5000) || !m_bus->waitForReadyRead(5000)) {
        m_error = QStringLiteral("dbus-daemon did not start: ") + m_bus->errorString();
        return false;
    }
    m_address = QString::fromLocal8Bit(m_bus->readLine()).trimmed();
    if (!m_address.startsWith(QStringLiteral("unix:"))) {
        m_error = QStringLiteral("dbus-daemon printed no address");
        return false;
    }
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toLocal8Bit());
    return true;
}

bool PrivateSessionBus::nameHasOwner(const QString& name) const
{
    QProcess ask;
    ask.start(QStringLiteral("dbus-send"),
              {QStringLiteral("--bus=") + m_address, QStringLiteral("--print-reply"),
               QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
               QStringLiteral("org.freedesktop.DBus.NameHasOwner"), QStringLiteral("string:") + name});
    if (!ask.waitForFinished(5000))
        return false;
    return ask.readAllStandardOutput().contains("boolean true");
}

bool PrivateSessionBus::waitForName(const QString& name, const QProcess& process, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (process.state() == QProcess::NotRunning) {
            m_error = process.program() + QStringLiteral(" exited");
            return false;
        }
        if (nameHasOwner(name))
            return true;
        QThread::msleep(50);
    }
    m_error = QStringLiteral("nothing took %1 on the private bus").arg(name);
    return false;
}

} // namespace lockscope::test
