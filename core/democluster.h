#pragma once

#include "result.h"

#include <QList>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace lockscope {

// N throw-away redis-server masters on free loopback ports, without persistence, in a temporary
// directory: the `lockscope --demo` cluster. Everything it starts stops when it is destroyed, and
// (through PR_SET_PDEATHSIG) when this process dies, even by SIGKILL: no orphaned servers.
class DemoCluster final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoCluster)

public:
    enum class MasterState
    {
        Running,
        Paused, // SIGSTOP: the socket stays open, nothing answers
        Killed,
    };
    Q_ENUM(MasterState)

    explicit DemoCluster(QObject* parent = nullptr);
    ~DemoCluster() override;

    // Starts `count` masters (blocking for at most a few seconds: call it before the window opens).
    // `redisServer` is the program to run; keyspace notifications are on so the demo is live.
    Result<QStringList> start(int count, const QString& redisServer = QStringLiteral("redis-server"));
    void stop();

    int size() const { return int(m_masters.size()); }
    QStringList urls() const;
    quint16 port(int index) const { return m_masters.at(index)->port; }
    qint64 pid(int index) const;
    MasterState state(int index) const { return m_masters.at(index)->state; }

    void kill(int index);
    void pause(int index);
    void resume(int index);
    // A new process on the same port: empty (no persistence), with a new run_id.
    bool restart(int index);

signals:
    void masterStateChanged(int index, lockscope::DemoCluster::MasterState state);

private:
    struct Master
    {
        quint16 port = 0;
        std::unique_ptr<QProcess> process;
        MasterState state = MasterState::Killed;
    };
    bool launch(Master& master, QString* error);
    void setState(int index, MasterState state);

    QTemporaryDir m_dir;
    QString m_program;
    QList<std::shared_ptr<Master>> m_masters;
};

} // namespace lockscope
