// SPDX-License-Identifier: Apache-2.0
#include "support/privatesecretservice.h"

#include <QDir>
#include <QStandardPaths>

namespace lockscope::test {

PrivateSecretService::PrivateSecretService() = default;

PrivateSecretService::~PrivateSecretService()
{
    PrivateSessionBus::stop(m_keyring);
}

bool PrivateSecretService::start()
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory");
        return false;
    }
    const QString runtime = m_dir.filePath(QStringLiteral("run"));
    QDir().mkpath(runtime);
    QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("HOME", m_dir.path().toLocal8Bit());
    qputenv("XDG_RUNTIME_DIR", runtime.toLocal8Bit());
    qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toLocal8Bit());
    if (!m_bus.start()) {
        m_error = m_bus.errorString();
        return false;
    }
    return startKeyring();
}

bool PrivateSecretService::startKeyring()
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon"));
    if (program.isEmpty()) {
        m_error = QStringLiteral("gnome-keyring-daemon is not installed (scripts/install-deps.sh --tests)");
        return false;
    }
    m_keyring = PrivateSessionBus::childProcess();
    m_keyring->setProcessChannelMode(QProcess::MergedChannels);
    m_keyring->setStandardOutputFile(QProcess::nullDevice());
    m_keyring->start(program, {QStringLiteral("--foreground"), QStringLiteral("--unlock"),
                               QStringLiteral("--components=secrets")});
    if (!m_keyring->waitForStarted(5000)) {
        m_error = QStringLiteral("gnome-keyring-daemon did not start: ") + m_keyring->errorString();
        return false;
    }
    // --unlock reads the new login keyring's password from standard input, up to its end. Nothing
    // here returns to an event loop, so the bytes must be pushed out before the channel closes.
    m_keyring->write("throw-away-unlock-password");
    m_keyring->waitForBytesWritten(5000);
    m_keyring->closeWriteChannel();
    if (m_bus.waitForName(QStringLiteral("org.freedesktop.secrets"), *m_keyring, 15000))
        return true;
    m_error = QStringLiteral("gnome-keyring-daemon: ") + m_bus.errorString();
    return false;
}

} // namespace lockscope::test
