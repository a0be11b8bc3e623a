// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#if LOCKSCOPE_HAVE_DBUS
#include <QDBusConnection>
#endif

class QSystemTrayIcon;

namespace lockscope {

// Desktop notifications: org.freedesktop.Notifications over the D-Bus session bus where there is
// one, a tray message otherwise (or when the call fails). Asynchronous: the window never waits for
// the notification service. Silent (review of a recording) sends nothing at all.
class DesktopNotifier final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopNotifier)

public:
    explicit DesktopNotifier(QObject* parent = nullptr);
#if LOCKSCOPE_HAVE_DBUS
    // On another bus than the session bus (tests: a private one).
    DesktopNotifier(const QDBusConnection& bus, QObject* parent = nullptr);
#endif
    ~DesktopNotifier() override;

    // Review mode (`lockscope --db FILE`) turns this on: what happened then is history, not news.
    void setSilent(bool silent)
    {
        m_silent = silent;
    }
    bool isSilent() const
    {
        return m_silent;
    }

    void notify(const QString& title, const QString& body);
    // Notifications handed to a service or the tray since this was made.
    int sentCount() const
    {
        return m_sent;
    }

signals:
    // The notification service took it, under this id (0 for a tray message).
    void delivered(uint id);
    // Neither the service nor a tray could show it.
    void failed(const QString& reason);

private:
    void showInTray(const QString& title, const QString& body, const QString& whyNotDbus);

#if LOCKSCOPE_HAVE_DBUS
    QDBusConnection m_bus;
#endif
    QSystemTrayIcon* m_tray = nullptr;
    bool m_silent = false;
    int m_sent = 0;
};

} // namespace lockscope
