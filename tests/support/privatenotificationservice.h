// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/privatesessionbus.h"

#include <QProcess>
#include <QStringList>

#include <memory>

namespace lockscope::test {

// A real desktop notification service for notification tests: Debian's notification-daemon owning
// org.freedesktop.Notifications on a private session bus, drawing on a private Xvfb display, and
// a dbus-monitor on that bus that sees every Notify call, so a test can check exactly which
// notifications arrived. Nothing reaches the user's own desktop.
class PrivateNotificationService
{
public:
    PrivateNotificationService() = default;
    ~PrivateNotificationService();
    PrivateNotificationService(const PrivateNotificationService&) = delete;
    PrivateNotificationService& operator=(const PrivateNotificationService&) = delete;

    bool start();
    const QString& errorString() const { return m_error; }
    const QString& busAddress() const { return m_bus.address(); }
    // The summaries (titles) of the Notify calls seen on the bus so far, in order.
    QStringList notifications();

private:
    bool startDisplay();
    bool startDaemon();
    bool startMonitor();

    QString m_error;
    QString m_displayName;  // ":N", the Xvfb display the daemon draws on
    QByteArray m_monitored; // dbus-monitor's output so far
    PrivateSessionBus m_bus;
    std::unique_ptr<QProcess> m_display;
    std::unique_ptr<QProcess> m_daemon;
    std::unique_ptr<QProcess> m_monitor;
};

} // namespace lockscope::test
