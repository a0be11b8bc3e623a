#include "privatesecretservice.h"

#include <QDeadlineTimer>
#include <QDir>
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

void stopProcess(std::unique_ptr<QProcess>& process)
{
    if (!process)
        return;
    if (process->state() != QProcess::NotRunning) {
        process->kill();
        process->waitForFinished(5000);
    }
    process.reset();
}

} // namespace

PrivateSecretService::PrivateSecretService() = default;

PrivateSecretService::~PrivateSecretService()
{
    stopProcess(m_keyring);
    stopProcess(m_bus);
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
    return startBus() && startKeyring();
}

bool PrivateSecretService::startBus()
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
    if (program.isEmpty()) {
        m_error = QStringLiteral("dbus-daemon is not installed (scripts/install-deps.sh --tests)");
        return false;
    }
    m_bus = std::make_unique<QProcess>();
    m_bus->setChildProcessModifier(dieWithParent);
    // It complains that it may not raise its file limit, which is harmless and only confuses logs.
    m_bus->setStandardErrorFile(QProcess::nullDevice());
    m_bus->start(program, {QStringLiteral("--session"), QStringLiteral("--nofork"),
                           QStringLiteral("--print-address=1")});
    if (!m_bus->waitForStarted(5000) || !m_bus->waitForReadyRead(5000)) {
        m_error = QStringLiteral("dbus-daemon did not start: ") + m_bus->errorString();
        return false;
    }
    m_busAddress = QString::fromLocal8Bit(m_bus->readLine()).trimmed();
    if (!m_busAddress.startsWith(QStringLiteral("unix:"))) {
        m_error = QStringLiteral("dbus-daemon printed no address");
        return false;
    }
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_busAddress.toLocal8Bit());
    return true;
}

bool PrivateSecretService::startKeyring()
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon"));
    if (program.isEmpty()) {
        m_error = QStringLiteral("gnome-keyring-daemon is not installed (scripts/install-deps.sh --tests)");
        return false;
    }
    m_keyring = std::make_unique<QProcess>();
    m_keyring->setChildProcessModifier(dieWithParent);
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
    const QDeadlineTimer deadline(15000);
    while (!deadline.hasExpired()) {
        if (m_keyring->state() == QProcess::NotRunning) {
            m_error = QStringLiteral("gnome-keyring-daemon exited");
            return false;
        }
        if (keyringOnBus())
            return true;
        QThread::msleep(50);
    }
    m_error = QStringLiteral("gnome-keyring-daemon never took org.freedesktop.secrets on the bus");
    return false;
}

bool PrivateSecretService::keyringOnBus() const
{
    QProcess ask;
    ask.start(QStringLiteral("dbus-send"),
              {QStringLiteral("--session"), QStringLiteral("--print-reply"),
               QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
               QStringLiteral("org.freedesktop.DBus.NameHasOwner"),
               QStringLiteral("string:org.freedesktop.secrets")});
    if (!ask.waitForFinished(5000))
        return false;
    return ask.readAllStandardOutput().contains("boolean true");
}

} // namespace lockscope::test
