// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/localserverprocess.h"
#include "base/rediserror.h"
#include "demo/demoserverprogram.h"

#include <QList>
#include <QObject>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>
#include <memory>

namespace lockscope {

class RedisConnection;

// The failover demo's throw-away Sentinel group on loopback: one primary, one replica and three
// sentinels (down-after 1 s, a short failover timeout), without persistence, in a temporary directory
// (mode 0700, configuration files 0600), every process requiring a random password. A node that exits
// at once because its port was taken meanwhile makes the group start over on new ports, a few times.
// Like DemoCluster, every process it starts stops when it is destroyed, and (through
// PR_SET_PDEATHSIG) when this process dies, even by SIGKILL.
//
// Starting is asynchronous: started() follows once the replica is in sync and every sentinel knows
// the other two and the replica, so that a failover can happen at once; startFailed() otherwise.
class DemoSentinelGroup final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoSentinelGroup)

public:
    explicit DemoSentinelGroup(QObject* parent = nullptr);
    ~DemoSentinelGroup() override;

    static constexpr int sentinelCount = 3;
    static constexpr int downAfterMs = 1000;
    static constexpr int settleTimeoutMs = 45000;

    void startAsync(const QString& redisServer = demoServerProgram());
    void stop();
    // For tests: where the ports come from (default: a free loopback port, 0 when none is).
    void setPortSource(std::function<quint16()> source) { m_portSource = std::move(source); }
    bool isStarting() const { return m_starting; }
    bool isStarted() const { return m_started; }

    static QString masterName() { return QStringLiteral("demo-primary"); }
    // redis-sentinel://:<password>@127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3/demo-primary?sentinel-auth=yes:
    // every node and sentinel requires a random password, chosen at each start. Never shown: a
    // connection's name() leaves it out.
    QString url() const;
    // redis://:<password>@127.0.0.1:<port>, for a client of one node.
    QString nodeUrl(quint16 port) const;
    const QString& password() const { return m_password; }
    quint16 primaryPort() const { return m_ports.value(primaryIndex); }
    quint16 replicaPort() const { return m_ports.value(replicaIndex); }
    // Every process this group started since the last stop(), running or not: for tests.
    const QList<qint64>& startedPids() const { return m_pids; }

    // Replication stops without touching the replica: the primary gets a password the replica does
    // not know (a random one, never shown) and its replication link is dropped. Connections already
    // in (the demo clients', the monitor's, the sentinels') stay authenticated.
    void cutReplication(std::function<void(const RedisError& error)> done);
    // SIGKILL to the primary: Sentinel promotes the replica after down-after.
    void killPrimary();
    bool isPrimaryRunning() const;

signals:
    void started();
    void startFailed(const lockscope::RedisError& error);

private:
    static constexpr int primaryIndex = 0;
    static constexpr int replicaIndex = 1;

    void startAttempt();
    void stopProcesses();
    QString logPath(int index) const;
    bool launch(int index, QString* error);
    QByteArray serverConf(int index, const QString& dir) const;
    QByteArray sentinelConf(int index, const QString& dir) const;
    void poll();
    void onSettledAnswer(int node, bool settled);
    void failStart(const QString& message);
    void killProcess(int index);

    QString m_program;
    QString m_password;
    std::function<quint16()> m_portSource;
    int m_attempt = 0; // start attempts, each on new ports
    std::unique_ptr<QTemporaryDir> m_dir;
    QList<quint16> m_ports;
    QList<std::shared_ptr<LocalServerProcess>> m_processes;
    QList<qint64> m_pids;
    // While starting: one connection per node whose state says whether the group has settled.
    QList<std::shared_ptr<RedisConnection>> m_probes;
    QList<bool> m_settled;
    QList<bool> m_asking;
    std::unique_ptr<RedisConnection> m_admin; // to the primary, opened once the group has settled
    QTimer m_poll;
    qint64 m_deadlineMs = 0;
    bool m_starting = false;
    bool m_started = false;
};

} // namespace lockscope
