// SPDX-License-Identifier: Apache-2.0
#include "notifications/desktopnotifier.h"

#include <QApplication>
#include <QSystemTrayIcon>

#if LOCKSCOPE_HAVE_DBUS
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#endif

namespace lockscope {

namespace {

const QString service = QStringLiteral("org.freedesktop.Notifications");
const QString path = QStringLiteral("/org/freedesktop/Notifications");

} // namespace

#if LOCKSCOPE_HAVE_DBUS
DesktopNotifier::DesktopNotifier(QObject* parent) : DesktopNotifier(QDBusConnection::sessionBus(), parent) {}

DesktopNotifier::DesktopNotifier(const QDBusConnection& bus, QObject* parent) : QObject(parent), m_bus(bus) {}
#else
DesktopNotifier::DesktopNotifier(QObject* parent) : QObject(parent) {}
#endif

DesktopNotifier::~DesktopNotifier() = default;

void DesktopNotifier::notify(const QString& title, const QString& body)
{
    if (m_silent)
        return;
#if LOCKSCOPE_HAVE_DBUS
    if (m_bus.isConnected()) {
        QDBusMessage call = QDBusMessage::createMethodCall(service, path, service, QStringLiteral("Notify"));
        // app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout (-1: the
        // server's default). Lock names are data: the body is sent as plain text, markup escaped.
        call << QStringLiteral("LockScope") << uint(0) << QStringLiteral("lockscope") << title
             << body.toHtmlEscaped() << QStringList() << QVariantMap() << -1;
        ++m_sent;
        auto* watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
        connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher, title, body] {
            watcher->deleteLater();
            const QDBusPendingReply<uint> reply = *watcher;
            if (reply.isError()) {
                --m_sent;
                showInTray(title, body, reply.error().message());
                return;
            }
            emit delivered(reply.value());
        });
        return;
    }
    showInTray(title, body, QStringLiteral("no D-Bus session bus"));
#else
    showInTray(title, body, QStringLiteral("built without D-Bus"));
#endif
}

void DesktopNotifier::showInTray(const QString& title, const QString& body, const QString& whyNotDbus)
{
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()) ||
        !QSystemTrayIcon::isSystemTrayAvailable()) {
        emit failed(tr("no notification service (%1) and no system tray").arg(whyNotDbus));
        return;
    }
    if (!m_tray) {
        m_tray = new QSystemTrayIcon(QApplication::windowIcon(), this);
        m_tray->show();
    }
    m_tray->showMessage(title, body, QSystemTrayIcon::Warning);
    ++m_sent;
    emit delivered(0);
}

} // namespace lockscope
