// SPDX-License-Identifier: Apache-2.0
#include "support/privatenotificationservice.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QStandardPaths>

namespace lockscope::test {

namespace {

const QString service = QStringLiteral("org.freedesktop.Notifications");
const QString daemonPath = QStringLiteral("/usr/lib/notification-daemon/notification-daemon");

} // namespace

PrivateNotificationService::~PrivateNotificationService()
{
    PrivateSessionBus::stop(m_monitor);
    PrivateSessionBus::stop(m_daemon);
    PrivateSessionBus::stop(m_display);
}

bool PrivateNotificationService::start()
{
    if (!QFile::exists(daemonPath)) {
        m_error = QStringLiteral("notification-daemon is not installed (scripts/install-deps.sh --tests)");
        return false;
    }
    if (!m_bus.start()) {
        m_error = m_bus.errorString();
        return false;
    }
    return startDisplay() && startDaemon() && startMonitor();
}

bool PrivateNotificationService::startDisplay()
{
    const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
    if (xvfb.isEmpty()) {
        m_error = QStringLiteral("Xvfb is not installed (scripts/install-deps.sh --tests)");
        return false;
    }
    m_display = PrivateSessionBus::childProcess();
    m_display->setStandardErrorFile(QProcess::nullDevice());
    // -displayfd: Xvfb picks a free display number and writes it once it accepts clients.
    m_display->start(xvfb, {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-nolisten"),
                            QStringLiteral("tcp"), QStringLiteral("-screen"), QStringLiteral("0"),
                            QStringLiteral("1024x768x24")});
    if (!m_display->waitForStarted(5000) || !m_display->waitForReadyRead(15000)) {
        m_error = QStringLiteral("Xvfb did not start: ") + m_display->errorString();
        return false;
    }
    m_displayName = QLatin1Char(':') + QString::fromLatin1(m_display->readLine()).trimmed();
    return true;
}

bool PrivateNotificationService::startDaemon()
{
    m_daemon = PrivateSessionBus::childProcess();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), m_displayName);
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_bus.address());
    env.insert(QStringLiteral("GDK_BACKEND"), QStringLiteral("x11"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    m_daemon->setProcessEnvironment(env);
    m_daemon->setProcessChannelMode(QProcess::MergedChannels);
    m_daemon->setStandardOutputFile(QProcess::nullDevice());
    m_daemon->start(daemonPath, {QStringLiteral("--replace")});
    if (!m_daemon->waitForStarted(5000)) {
        m_error = QStringLiteral("notification-daemon did not start: ") + m_daemon->errorString();
        return false;
    }
    if (m_bus.waitForName(service, *m_daemon, 15000))
        return true;
    m_error = QStringLiteral("notification-daemon: ") + m_bus.errorString();
    return false;
}

bool PrivateNotificationService::startMonitor()
{
    m_monitor = PrivateSessionBus::childProcess();
    m_monitor->setStandardErrorFile(QProcess::nullDevice());
    m_monitor->start(
        QStringLiteral("dbus-monitor"),
        {QStringLiteral("--address"), m_bus.address(),
         QStringLiteral("type='method_call',interface='org.freedesktop.Notifications',member='Notify'")});
    if (!m_monitor->waitForStarted(5000)) {
        m_error = QStringLiteral("dbus-monitor did not start: ") + m_monitor->errorString();
        return false;
    }
    // It prints its own NameAcquired signal once it listens: from then on no call is missed.
    const QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired() && !m_monitored.contains("NameAcquired") &&
           !m_monitored.contains("NameLost")) {
        m_monitor->waitForReadyRead(100);
        m_monitored += m_monitor->readAllStandardOutput();
    }
    if (!m_monitored.contains("NameAcquired") && !m_monitored.contains("NameLost")) {
        m_error = QStringLiteral("dbus-monitor never started listening");
        return false;
    }
    return true;
}

QStringList PrivateNotificationService::notifications()
{
    m_monitored += m_monitor->readAllStandardOutput();
    // A Notify call prints its arguments one per line: app_name, replaces_id, app_icon, summary, ...
    QStringList summaries;
    const QList<QByteArray> lines = m_monitored.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (!lines.at(i).contains("member=Notify"))
            continue;
        int strings = 0;
        for (int j = i + 1; j < lines.size() && !lines.at(j).contains("member="); ++j) {
            const QByteArray line = lines.at(j).trimmed();
            if (!line.startsWith("string \""))
                continue;
            if (++strings == 3) { // app_name, app_icon, then the summary
                summaries << QString::fromUtf8(line.mid(8, line.size() - 9));
                break;
            }
        }
    }
    return summaries;
}

} // namespace lockscope::test
