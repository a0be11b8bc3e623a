#include "democluster.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>

namespace lockscope {

namespace {

quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

} // namespace

DemoCluster::DemoCluster(QObject* parent) : QObject(parent) {}

DemoCluster::~DemoCluster()
{
    stop();
}

Result<QStringList> DemoCluster::start(int count, const QString& redisServer)
{
    stop();
    if (!m_dir.isValid())
        return RedisError(ErrorKind::Io, QString(),
                          QStringLiteral("no temporary directory for the demo cluster"));
    m_program = redisServer;
    for (int i = 0; i < count; ++i) {
        auto master = std::make_shared<Master>();
        QString error;
        bool started = false;
        for (int attempt = 0; attempt < 5 && !started; ++attempt) {
            master->port = freePort();
            started = master->port != 0 && launch(*master, &error);
        }
        master->state = MasterState::Running;
        if (!started) {
            stop();
            return RedisError(ErrorKind::Io, QString(),
                              QStringLiteral("demo master %1: %2").arg(i + 1).arg(error));
        }
        m_masters << master;
    }
    return urls();
}

bool DemoCluster::launch(Master& master, QString* error)
{
    const QString dir = m_dir.filePath(QString::number(master.port));
    QDir().mkpath(dir);
    auto process = std::make_unique<QProcess>();
    process->setProgram(m_program);
    process->setArguments({QStringLiteral("--bind"), QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                           QString::number(master.port), QStringLiteral("--save"), QString(),
                           QStringLiteral("--appendonly"), QStringLiteral("no"), QStringLiteral("--dir"), dir,
                           QStringLiteral("--protected-mode"), QStringLiteral("yes"),
                           QStringLiteral("--notify-keyspace-events"), QStringLiteral("KA"),
                           QStringLiteral("--logfile"), dir + QStringLiteral("/redis.log")});
    process->setStandardOutputFile(QProcess::nullDevice());
    process->setStandardErrorFile(QProcess::nullDevice());
    // The servers die with us, whatever kills us.
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    process->start();
    if (!process->waitForStarted(5000)) {
        *error = QStringLiteral("cannot run %1: %2").arg(m_program, process->errorString());
        return false;
    }
    const QDeadlineTimer deadline(5000);
    while (!deadline.hasExpired()) {
        if (process->waitForFinished(1)) {
            *error = QStringLiteral("redis-server exited at once (port %1 taken?)").arg(master.port);
            return false;
        }
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, master.port);
        if (probe.waitForConnected(100)) {
            master.process = std::move(process);
            return true;
        }
        QThread::msleep(20);
    }
    ::kill(pid_t(process->processId()), SIGKILL);
    process->waitForFinished(2000);
    *error = QStringLiteral("redis-server on port %1 did not accept connections").arg(master.port);
    return false;
}

void DemoCluster::stop()
{
    for (int i = 0; i < m_masters.size(); ++i)
        kill(i);
    m_masters.clear();
}

QStringList DemoCluster::urls() const
{
    QStringList out;
    for (const auto& m : m_masters)
        out << QStringLiteral("redis://127.0.0.1:%1").arg(m->port);
    return out;
}

qint64 DemoCluster::pid(int index) const
{
    const auto& m = m_masters.at(index);
    return m->process ? m->process->processId() : 0;
}

void DemoCluster::kill(int index)
{
    Master& m = *m_masters.at(index);
    if (!m.process)
        return;
    // Only the process this cluster started, by its own pid; SIGKILL also ends a stopped process.
    ::kill(pid_t(m.process->processId()), SIGKILL);
    m.process->waitForFinished(2000);
    m.process.reset();
    setState(index, MasterState::Killed);
}

void DemoCluster::pause(int index)
{
    Master& m = *m_masters.at(index);
    if (m.process && m.state == MasterState::Running) {
        ::kill(pid_t(m.process->processId()), SIGSTOP);
        setState(index, MasterState::Paused);
    }
}

void DemoCluster::resume(int index)
{
    Master& m = *m_masters.at(index);
    if (m.process && m.state == MasterState::Paused) {
        ::kill(pid_t(m.process->processId()), SIGCONT);
        setState(index, MasterState::Running);
    }
}

bool DemoCluster::restart(int index)
{
    kill(index);
    QString error;
    if (!launch(*m_masters.at(index), &error))
        return false;
    setState(index, MasterState::Running);
    return true;
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
