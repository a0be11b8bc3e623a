// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/privatesessionbus.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace lockscope::test {

// A real Secret Service for keychain tests: a private D-Bus session bus and a gnome-keyring-daemon
// on it, unlocked with a throw-away password, with HOME and the XDG directories in a temporary
// directory. start() points this process's environment at them, so it must run before anything
// opens the session bus. Both processes are killed when this object goes and, through
// PR_SET_PDEATHSIG, when the test process dies; the user's own keyring is never touched.
class PrivateSecretService
{
public:
    PrivateSecretService();
    ~PrivateSecretService();
    PrivateSecretService(const PrivateSecretService&) = delete;
    PrivateSecretService& operator=(const PrivateSecretService&) = delete;

    bool start();
    const QString& errorString() const { return m_error; }
    // Where the keyring keeps its files (to check that nothing lands there in clear text).
    QString home() const { return m_dir.path(); }

private:
    bool startKeyring();

    QTemporaryDir m_dir;
    PrivateSessionBus m_bus;
    std::unique_ptr<QProcess> m_keyring;
    QString m_error;
};

} // namespace lockscope::test
