// SPDX-License-Identifier: Apache-2.0
#include "demo/democluster.h"

#include "base/localserverfiles.h"
#include "base/monotonicclock.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTcpSocket>
#include <QTimer>

namespace lockscope {

namespace {

// "redis-server" or "valkey-server", for messages, whatever path it was given by.
QString programName(const QString& program)
{
    return QFileInfo(program).fileName();
}

constexpr int maxLaunchAttempts = 5;

} // namespace

DemoCluster::DemoCluster(QObject* parent)
    : QObject(parent), m_portSource(LocalServerProcess::freeLoopbackPort), m_probeTimer(new QTimer(this))
{
    m_probeTimer->setInterval(25);
    connect(m_probeTimer, &QTimer::timeout, this, [this] {
        for (int i = 0; i < m_masters.size(); ++i)
            if (m_masters.at(i)->state == MasterState::Starting)
                probe(i);
    });
}

DemoCluster::~DemoCluster()
{
    stop();
}

void DemoCluster::startAsync(int count, const QString& redisServer)
{
    stop();
    m_program = redisServer;
    m_password = LocalServerFiles::newPassword();
    m_starting = true;
    if (!m_dir.isValid())
        return failStart(tr("no temporary directory for the demo cluster"));
    for (int i = 0; i < count; ++i) {
        m_masters << std::make_shared<Master>();
        QString error;
        bool launched = false;
        while (!launched && m_masters.last()->attempts < maxLaunchAttempts) {
            m_masters.last()->port = nextPort();
            launched = m_masters.last()->port != 0 && launch(i, &error);
        }
        if (!launched)
            return failStart(tr("demo master %1: %2").arg(i + 1).arg(error));
    }
    m_probeTimer->start();
}

Result<QStringList> DemoCluster::start(int count, const QString& redisServer)
{
    QEventLoop loop;
    Result<QStringList> outcome =
        RedisError(ErrorKind::Timeout, QString(), tr("the demo masters did not start"));
    const auto ok = connect(this, &DemoCluster::started, &loop, [&](const QStringList& urls) {
        outcome = urls;
        loop.quit();
    });
    const auto failed = connect(this, &DemoCluster::startFailed, &loop, [&](const RedisError& error) {
        outcome = error;
        loop.quit();
    });
    startAsync(count, redisServer);
    if (m_starting)
        loop.exec();
    disconnect(ok);
    disconnect(failed);
    return outcome;
}

bool DemoCluster::launch(int index, QString* error)
{
    Master& master = *m_masters.at(index);
    ++master.attempts;
    const QString dir = m_dir.filePath(QString::number(master.port));
    QDir().mkpath(dir);
    // Everything in a file only we can read: the password must not show in the process list.
    const QByteArray conf = LocalServerFiles::serverConfig(master.port, dir, m_password);
    const QString confPath = dir + QStringLiteral("/redis.conf");
    QFile::remove(dir + QStringLiteral("/redis.log")); // a restart's log says why this process exits
    // The server dies with us, whatever kills us; its readiness is probed later, without blocking.
    auto process = std::make_unique<LocalServerProcess>();
    LocalServerProcess* raw = process.get();
    connect(raw, &LocalServerProcess::exited, this, [this, index, raw] { onExited(index, raw); });
    if (!process->start({m_program, confPath, conf, {}, false}, error)) {
        process->disconnect(this);
        return false;
    }
    master.process = std::move(process);
    master.deadlineMs = monotonicMs() + startTimeoutMs;
    setState(index, MasterState::Starting);
    m_probeTimer->start();
    return true;
}

void DemoCluster::probe(int index)
{
    Master& master = *m_masters.at(index);
    if (master.probe)
        return; // one attempt at a time
    if (monotonicMs() > master.deadlineMs) {
        const QString message = tr("%1 on port %2 did not accept connections")
                                    .arg(programName(m_program), QString::number(master.port));
        kill(index);
        if (m_starting)
            failStart(message);
        return;
    }
    master.probe = std::make_unique<QTcpSocket>();
    QTcpSocket* socket = master.probe.get();
    // Our password must be accepted: a server that only accepts connections may be someone else's
    // that took the port first (ours then exits, and is launched again on another port).
    connect(socket, &QTcpSocket::connected, this, [socket, password = m_password.toUtf8()] {
        socket->write("*2\r\n$4\r\nAUTH\r\n$" + QByteArray::number(password.size()) + "\r\n" + password +
                      "\r\n*1\r\n$4\r\nPING\r\n");
    });
    connect(socket, &QTcpSocket::readyRead, this, [this, index, socket] {
        const QByteArray expected = "+OK\r\n+PONG\r\n";
        const QByteArray got = socket->peek(64);
        if (got.size() >= expected.size() || !expected.startsWith(got))
            onProbeResult(index, got.startsWith(expected));
    });
    connect(socket, &QTcpSocket::errorOccurred, this, [this, index] { onProbeResult(index, false); });
    socket->connectToHost(QHostAddress::LocalHost, master.port);
}

void DemoCluster::onProbeResult(int index, bool accepted)
{
    Master& master = *m_masters.at(index);
    if (!master.probe)
        return;
    master.probe->disconnect(this);
    master.probe->abort();
    master.probe.release()->deleteLater(); // we are inside its signal
    if (accepted && master.state == MasterState::Starting && master.process) {
        setState(index, MasterState::Running);
        checkAllRunning();
    }
}

void DemoCluster::onExited(int index, LocalServerProcess* process)
{
    if (index >= m_masters.size())
        return;
    Master& master = *m_masters.at(index);
    if (master.process.get() != process)
        return; // a process we replaced or killed on purpose
    master.process.release()->deleteLater();
    if (master.probe) {
        master.probe->disconnect(this);
        master.probe.reset();
    }
    const QString log = m_dir.filePath(QString::number(master.port)) + QStringLiteral("/redis.log");
    // While the cluster starts, any exit counts, also of a master already seen answering: started()
    // waits for all of them, so an exit that left it waiting would hang the start.
    if (m_starting && master.attempts < maxLaunchAttempts && LocalServerFiles::portWasTaken(log)) {
        // Someone took the port between our pick and the server's bind: another port, a few times.
        QString error = tr("no free loopback port");
        master.port = nextPort();
        if (master.port != 0 && launch(index, &error))
            return;
        return failStart(tr("demo master %1: %2").arg(index + 1).arg(error));
    }
    setState(index, MasterState::Killed);
    if (m_starting) {
        const QString why = LocalServerFiles::lastLine(log, m_password);
        failStart(tr("demo master %1: %2 on port %3 exited at once%4")
                      .arg(index + 1)
                      .arg(programName(m_program))
                      .arg(master.port)
                      .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    }
}

quint16 DemoCluster::nextPort() const
{
    QList<quint16> ours;
    for (const auto& m : m_masters)
        ours << m->port;
    return LocalServerProcess::distinctPort(m_portSource, ours);
}

void DemoCluster::failStart(const QString& message)
{
    m_starting = false;
    stop();
    emit startFailed(RedisError(ErrorKind::Io, QString(), message));
}

void DemoCluster::checkAllRunning()
{
    if (!m_starting)
        return;
    for (const auto& m : std::as_const(m_masters))
        if (m->state != MasterState::Running)
            return;
    m_starting = false;
    m_started = true;
    emit started(urls());
}

void DemoCluster::stop()
{
    m_probeTimer->stop();
    for (int i = 0; i < m_masters.size(); ++i)
        kill(i);
    m_masters.clear();
    m_started = false;
}

QStringList DemoCluster::urls() const
{
    QStringList out;
    for (const auto& m : m_masters)
        out << QStringLiteral("redis://:%1@127.0.0.1:%2").arg(m_password).arg(m->port);
    return out;
}

qint64 DemoCluster::pid(int index) const
{
    const auto& m = m_masters.at(index);
    return m->process ? m->process->pid() : 0;
}

void DemoCluster::kill(int index)
{
    Master& m = *m_masters.at(index);
    if (m.probe) {
        m.probe->disconnect(this);
        m.probe->abort();
        m.probe.release()->deleteLater();
    }
    if (!m.process)
        return;
    m.process->disconnect(this);
    m.process.reset(); // SIGKILL by its pid (also ending a stopped process), reaped
    setState(index, MasterState::Killed);
}

void DemoCluster::pause(int index)
{
    Master& m = *m_masters.at(index);
    if (m.process && m.state == MasterState::Running) {
        m.process->pause();
        setState(index, MasterState::Paused);
    }
}

void DemoCluster::resume(int index)
{
    Master& m = *m_masters.at(index);
    if (m.process && m.state == MasterState::Paused) {
        m.process->resume();
        setState(index, MasterState::Running);
    }
}

bool DemoCluster::restart(int index)
{
    if (index < 0 || index >= m_masters.size())
        return false;
    kill(index);
    Master& m = *m_masters.at(index);
    m.attempts = maxLaunchAttempts; // same port: no retry on another one
    QString error;
    return launch(index, &error);
}

void DemoCluster::setState(int index, MasterState state)
{
    Master& m = *m_masters.at(index);
    if (m.state == state)
        return;
    m.state = state;
    emit masterStateChanged(index, state);
}

} // namespace lockscope
