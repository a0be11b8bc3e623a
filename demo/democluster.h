// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/localserverprocess.h"
#include "base/result.h"
#include "demo/demoserverprogram.h"

#include <QList>
#include <QObject>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>
#include <memory>

class QTcpSocket;
class QTimer;

namespace lockscope {

// N throw-away redis-server masters on free loopback ports, without persistence, in a temporary
// directory (mode 0700, configuration files 0600), each requiring a random password: the
// `lockscope --demo` cluster. A server that exits at once because its port was taken meanwhile is
// launched again on another port, a few times. Everything it starts stops when it is destroyed, and
// (through PR_SET_PDEATHSIG) when this process dies, even by SIGKILL: no orphaned servers.
//
// Starting is asynchronous (the window opens at once and fills in): startAsync() returns at once and
// started() or startFailed() follows once every server accepts connections. restart() is asynchronous
// the same way; kill, pause and resume only signal a process and take effect at once.
class DemoCluster final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoCluster)

public:
    enum class MasterState
    {
        Starting, // launched, not yet accepting connections
        Running,
        Paused, // SIGSTOP: the socket stays open, nothing answers
        Killed,
    };
    Q_ENUM(MasterState)

    explicit DemoCluster(QObject* parent = nullptr);
    ~DemoCluster() override;

    // Launches `count` masters; `redisServer` is the program to run. Keyspace notifications are on,
    // so the demo is live. The ports (and so urls()) are fixed when this returns.
    void startAsync(int count, const QString& redisServer = demoServerProgram());
    // startAsync() and a local event loop until the outcome: for tests and windowless hosts only.
    Result<QStringList> start(int count, const QString& redisServer = demoServerProgram());
    void stop();
    // For tests: where the ports come from (default: a free loopback port, 0 when none is).
    void setPortSource(std::function<quint16()> source) { m_portSource = std::move(source); }

    bool isStarted() const { return m_started; }
    int size() const { return int(m_masters.size()); }
    // redis://:<password>@127.0.0.1:<port>: every master requires a random password, chosen at each
    // start, so that other local users cannot use or change the demo's servers. Never shown: a
    // connection's name() leaves it out.
    QStringList urls() const;
    const QString& password() const { return m_password; }
    quint16 port(int index) const { return m_masters.at(index)->port; }
    qint64 pid(int index) const;
    MasterState state(int index) const { return m_masters.at(index)->state; }

    void kill(int index);
    void pause(int index);
    void resume(int index);
    // A new process on the same port: empty (no persistence), with a new run_id. False when it could
    // not even be launched; otherwise masterStateChanged(Running) follows once it accepts connections.
    bool restart(int index);

    // How long a server may take to accept connections before it counts as failed.
    static constexpr int startTimeoutMs = 15000;

signals:
    void started(const QStringList& urls);
    void startFailed(const lockscope::RedisError& error);
    void masterStateChanged(int index, lockscope::DemoCluster::MasterState state);

private:
    struct Master
    {
        quint16 port = 0;
        int attempts = 0;
        qint64 deadlineMs = 0;
        std::unique_ptr<LocalServerProcess> process;
        std::unique_ptr<QTcpSocket> probe;
        MasterState state = MasterState::Killed;
    };
    bool launch(int index, QString* error);
    void probe(int index);
    void onProbeResult(int index, bool accepted);
    void onExited(int index, LocalServerProcess* process);
    quint16 nextPort() const; // a free port none of our masters has
    void failStart(const QString& message);
    void checkAllRunning();
    void setState(int index, MasterState state);

    QTemporaryDir m_dir;
    QString m_program;
    QString m_password;
    std::function<quint16()> m_portSource;
    QList<std::shared_ptr<Master>> m_masters;
    QTimer* m_probeTimer;
    bool m_starting = false;
    bool m_started = false;
};

} // namespace lockscope
