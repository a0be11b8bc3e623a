// SPDX-License-Identifier: Apache-2.0
#include "demo/demosentinelgroup.h"

#include "base/localserverfiles.h"
#include "base/monotonicclock.h"
#include "config/configloader.h"
#include "connection/redisconnection.h"

#include <QDir>
#include <QRandomGenerator>

namespace lockscope {

namespace {

constexpr int maxStartAttempts = 5;
// Sentinel's failover-timeout: short, so that a demo's failover does not wait on a stuck one.
constexpr int failoverTimeoutMs = 3000;

ConnectionOptions nodeOptions(const QString& url)
{
    Result<ConnectionOptions> options = ConfigLoader::masterFromUrl(url, TlsOptions(), 1000);
    ConnectionOptions out = options ? *options : ConnectionOptions();
    out.healthIntervalMs = 0;
    out.reconnectInitialMs = 50;
    out.reconnectMaxMs = 250;
    out.clientName = "lockscope-demo";
    return out;
}

QByteArray infoValue(const QByteArray& info, const QByteArray& name)
{
    for (const QByteArray& line : info.split('\n'))
        if (line.startsWith(QByteArray(name + ':')))
            return line.mid(name.size() + 1).trimmed();
    return {};
}

// A sentinel's reply to SENTINEL REPLICAS: one replica, connected and not down.
bool replicaListed(const RedisReply& replicas)
{
    if (!replicas.isArray() || replicas.elements.size() != 1)
        return false;
    const RedisReply& replica = replicas.elements.first();
    for (qsizetype f = 0; f + 1 < replica.elements.size(); f += 2)
        if (replica.elements.at(f).string == "flags")
            return !replica.elements.at(f + 1).string.contains("disconnected") &&
                   !replica.elements.at(f + 1).string.contains("_down");
    return false;
}

} // namespace

DemoSentinelGroup::DemoSentinelGroup(QObject* parent)
    : QObject(parent), m_portSource(LocalServerProcess::freeLoopbackPort)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, &DemoSentinelGroup::poll);
}

DemoSentinelGroup::~DemoSentinelGroup()
{
    stop();
}

void DemoSentinelGroup::startAsync(const QString& redisServer)
{
    stop();
    m_pids.clear();
    m_program = redisServer;
    m_password = LocalServerFiles::newPassword();
    m_starting = true;
    m_attempt = 0;
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return failStart(tr("no temporary directory for the Sentinel group"));
    startAttempt();
}

void DemoSentinelGroup::startAttempt()
{
    ++m_attempt;
    const int count = 2 + sentinelCount;
    // Two nodes given one port would race for it: none is bound until its server starts.
    for (int i = 0; i < count; ++i) {
        m_ports << LocalServerProcess::distinctPort(m_portSource, m_ports);
        m_processes << nullptr;
    }
    for (int i = 0; i < count; ++i) {
        QString error;
        if (m_ports.at(i) == 0 || !launch(i, &error))
            return failStart(tr("Sentinel group node %1: %2").arg(i + 1).arg(error));
    }
    for (int i = 0; i < count; ++i) {
        auto probe = std::make_shared<RedisConnection>(nodeOptions(nodeUrl(m_ports.at(i))));
        probe->open();
        m_probes << probe;
        m_settled << false;
        m_asking << false;
    }
    m_deadlineMs = monotonicMs() + settleTimeoutMs;
    m_poll.start();
}

void DemoSentinelGroup::stopProcesses()
{
    m_poll.stop();
    for (const auto& probe : std::as_const(m_probes)) {
        probe->close();
        // Our own callbacks may be running inside a probe: let it go later.
        QTimer::singleShot(0, [keep = probe] {});
    }
    m_probes.clear();
    m_settled.clear();
    m_asking.clear();
    for (int i = 0; i < m_processes.size(); ++i)
        killProcess(i);
    m_processes.clear();
    m_ports.clear();
}

QString DemoSentinelGroup::logPath(int index) const
{
    return m_dir->filePath(QString::number(m_ports.at(index))) +
           (index > replicaIndex ? QStringLiteral("/sentinel.log") : QStringLiteral("/redis.log"));
}

QString DemoSentinelGroup::nodeUrl(quint16 port) const
{
    return QStringLiteral("redis://:%1@127.0.0.1:%2").arg(m_password).arg(port);
}

QByteArray DemoSentinelGroup::serverConf(int index, const QString& dir) const
{
    // In a file only we can read: the password must not show in the process list. Every data node
    // knows it as masterauth too, since any of them may become a replica after a failover.
    QByteArray text = LocalServerFiles::serverConfig(m_ports.at(index), dir, m_password) + "masterauth " +
                      LocalServerFiles::quoted(m_password) + '\n';
    // The replica's first sync starts at once instead of after Redis 7's default 5 s wait for more
    // replicas to share the transfer (there is only one): the group is ready that much sooner.
    text += "repl-diskless-sync-delay 0\n";
    if (index == replicaIndex)
        text += "replicaof 127.0.0.1 " + QByteArray::number(m_ports.at(primaryIndex)) + '\n';
    return text;
}

QByteArray DemoSentinelGroup::sentinelConf(int index, const QString& dir) const
{
    // Sentinel rewrites its configuration file, so each one needs its own. Sentinels require the
    // password from clients and give it to each other (requirepass, sentinel-pass) and to the data
    // nodes (auth-pass).
    const QByteArray name = masterName().toUtf8();
    const QByteArray password = LocalServerFiles::quoted(m_password);
    return "port " + QByteArray::number(m_ports.at(index)) +
           "\nbind 127.0.0.1\nprotected-mode no\ndaemonize no\ndir " + LocalServerFiles::quoted(dir) +
           "\nlogfile " + LocalServerFiles::quoted(dir + QStringLiteral("/sentinel.log")) + "\nrequirepass " +
           password + "\nsentinel sentinel-pass " + password + "\nsentinel monitor " + name + " 127.0.0.1 " +
           QByteArray::number(m_ports.at(primaryIndex)) + ' ' + QByteArray::number(sentinelCount / 2 + 1) +
           "\nsentinel auth-pass " + name + ' ' + password + "\nsentinel down-after-milliseconds " + name +
           ' ' + QByteArray::number(downAfterMs) + "\nsentinel failover-timeout " + name + ' ' +
           QByteArray::number(failoverTimeoutMs) + "\nsentinel parallel-syncs " + name + " 1\n";
}

bool DemoSentinelGroup::launch(int index, QString* error)
{
    const QString dir = m_dir->filePath(QString::number(m_ports.at(index)));
    QDir().mkpath(dir);
    LocalServerProcess::Launch launch;
    launch.program = m_program;
    if (index > replicaIndex) {
        launch.configPath = dir + QStringLiteral("/sentinel.conf");
        launch.config = sentinelConf(index, dir);
        launch.arguments = {QStringLiteral("--sentinel")};
    } else {
        launch.configPath = dir + QStringLiteral("/redis.conf");
        launch.config = serverConf(index, dir);
    }
    // The servers die with us, whatever kills us; readiness is polled later.
    auto process = std::make_shared<LocalServerProcess>();
    if (!process->start(launch, error))
        return false;
    m_pids << process->pid();
    m_processes[index] = process;
    return true;
}

void DemoSentinelGroup::poll()
{
    if (!m_starting)
        return;
    for (int i = 0; i < m_processes.size(); ++i) {
        if (m_processes.at(i) && m_processes.at(i)->isRunning())
            continue;
        const QString log = logPath(i);
        if (LocalServerFiles::portWasTaken(log) && m_attempt < maxStartAttempts) {
            // Someone took one of our ports between our pick and the bind (tests run in parallel):
            // the group starts over on new ports, since every node's configuration names the primary's.
            stopProcesses();
            return startAttempt();
        }
        const QString why = LocalServerFiles::lastLine(log, m_password);
        return failStart(tr("Sentinel group node %1 (port %2) exited at once%3")
                             .arg(i + 1)
                             .arg(m_ports.at(i))
                             .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    }
    if (monotonicMs() > m_deadlineMs)
        return failStart(tr("the Sentinel group did not settle in %1 s").arg(settleTimeoutMs / 1000));
    const QByteArray name = masterName().toUtf8();
    for (int i = 0; i < m_probes.size(); ++i) {
        RedisConnection* probe = m_probes.at(i).get();
        if (m_settled.at(i) || m_asking.at(i) || !probe->isUp())
            continue;
        m_asking[i] = true;
        if (i == primaryIndex) {
            probe->send({"PING"}, this, [this, i](const RedisResult& r) { onSettledAnswer(i, r.ok()); });
        } else if (i == replicaIndex) {
            probe->send({"INFO", "replication"}, this, [this, i](const RedisResult& r) {
                onSettledAnswer(i, r.ok() && infoValue(r.reply.string, "master_link_status") == "up");
            });
        } else {
            RedisCommandBatch batch;
            batch.add({"SENTINEL", "SENTINELS", name});
            batch.add({"SENTINEL", "REPLICAS", name});
            probe->send(batch, this, [this, i](const RedisError& error, QList<RedisReply>& replies) {
                onSettledAnswer(i, !error.isError() && replies.size() == 2 && replies.at(0).isArray() &&
                                       replies.at(0).elements.size() == sentinelCount - 1 &&
                                       replicaListed(replies.at(1)));
            });
        }
    }
}

void DemoSentinelGroup::onSettledAnswer(int node, bool settled)
{
    if (!m_starting || node >= m_settled.size())
        return;
    m_asking[node] = false;
    m_settled[node] = settled;
    if (m_settled.contains(false))
        return;
    m_poll.stop();
    // Our own callbacks run inside the probes: let them go later.
    for (const auto& probe : std::as_const(m_probes)) {
        probe->close();
        QTimer::singleShot(0, [keep = probe] {});
    }
    m_probes.clear();
    m_admin = std::make_unique<RedisConnection>(nodeOptions(nodeUrl(primaryPort())));
    m_admin->open();
    m_starting = false;
    m_started = true;
    emit started();
}

void DemoSentinelGroup::cutReplication(std::function<void(const RedisError& error)> done)
{
    if (!m_admin)
        return done(RedisError(ErrorKind::Io, QString(), tr("the Sentinel group is not running")));
    const QByteArray secret = QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    m_admin->send(
        {"CONFIG", "SET", "requirepass", secret}, this,
        [this, done, name = m_admin->name()](const RedisResult& r) {
            if (!r.ok() || r.isServerError())
                return done(r.anyError(name));
            m_admin->send({"CLIENT", "KILL", "TYPE", "replica"}, this, [done, name](const RedisResult& k) {
                if (!k.ok() || k.isServerError())
                    return done(k.anyError(name));
                if (k.reply.integer < 1)
                    return done(
                        RedisError(ErrorKind::Protocol, name, tr("the primary had no replica to cut off")));
                done(RedisError());
            });
        });
}

void DemoSentinelGroup::killPrimary()
{
    if (m_admin) {
        m_admin->close();
        m_admin.reset();
    }
    killProcess(primaryIndex);
}

bool DemoSentinelGroup::isPrimaryRunning() const
{
    const auto process = m_processes.value(primaryIndex);
    return process && process->isRunning();
}

void DemoSentinelGroup::killProcess(int index)
{
    const auto process = m_processes.value(index);
    if (!process)
        return;
    process->stop(); // SIGKILL by its own pid, reaped
    m_processes[index] = nullptr;
}

void DemoSentinelGroup::failStart(const QString& message)
{
    stop();
    emit startFailed(RedisError(ErrorKind::Io, QString(), message));
}

void DemoSentinelGroup::stop()
{
    if (m_admin)
        m_admin->close();
    m_admin.reset();
    stopProcesses();
    m_dir.reset();
    m_starting = false;
    m_started = false;
}

QString DemoSentinelGroup::url() const
{
    QStringList hosts;
    for (int i = replicaIndex + 1; i < m_ports.size(); ++i)
        hosts << QStringLiteral("127.0.0.1:%1").arg(m_ports.at(i));
    return QStringLiteral("redis-sentinel://:%1@").arg(m_password) + hosts.join(QLatin1Char(',')) +
           QLatin1Char('/') + masterName() + QStringLiteral("?sentinel-auth=yes");
}

} // namespace lockscope
