// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QProcess>
#include <QString>

#include <memory>

namespace lockscope::test {

// A private D-Bus session bus (dbus-daemon --session) for tests that need a real D-Bus service
// (the keychain's Secret Service, the desktop notification service), so that the user's own session
// bus is never touched. The daemon is killed when this object goes and, through PR_SET_PDEATHSIG,
// when the test process dies.
class PrivateSessionBus
{
public:
    PrivateSessionBus() = default;
    ~PrivateSessionBus();
    PrivateSessionBus(const PrivateSessionBus&) = delete;
    PrivateSessionBus& operator=(const PrivateSessionBus&) = delete;

    // Starts the daemon and points DBUS_SESSION_BUS_ADDRESS at it (before anything opens the bus).
    bool start();
    const QString& address() const { return m_address; }
    const QString& errorString() const { return m_error; }
    // Some client owns `name` on this bus now (asked with dbus-send, so this never opens a
    // connection of the test process itself).
    bool nameHasOwner(const QString& name) const;
    // Polls nameHasOwner until it is true, `process` exits, or `timeoutMs` passes.
    bool waitForName(const QString& name, const QProcess& process, int timeoutMs);

    // A helper process that dies with the test process.
    static std::unique_ptr<QProcess> childProcess();
    static void stop(std::unique_ptr<QProcess>& process);

private:
    std::unique_ptr<QProcess> m_bus;
    QString m_address;
    QString m_error;
};

} // namespace lockscope::test
