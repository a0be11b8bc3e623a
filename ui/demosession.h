#pragma once

#include "democluster.h"
#include "demosimulation.h"
#include "lockscopeconfig.h"
#include "result.h"

#include <QObject>

#include <memory>

namespace lockscope {

class MasterSet;

// `lockscope --demo`: five throw-away masters with a realistic set of locks (every status, several
// libraries' formats) and the live Redlock simulation (clients, fenced storage, scenarios). Starting
// is asynchronous: the window opens at once and ready() hands it the configuration once the masters
// are up and the sample locks written.
class DemoSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoSession)

public:
    static constexpr int masterCount = 5;

    explicit DemoSession(QObject* parent = nullptr);
    ~DemoSession() override;

    void start(const QString& redisServer = QStringLiteral("redis-server"));
    bool isReady() const { return m_ready; }
    DemoCluster* cluster() { return &m_cluster; }
    DemoSimulation* simulation() { return &m_simulation; }

    // The sample locks as (master index, command) pairs: what start() writes.
    static QList<QPair<int, QByteArrayList>> sampleCommands(qint64 nowWallMs);

signals:
    void ready(const lockscope::LockScopeConfig& config);
    void failed(const lockscope::RedisError& error);

private:
    void onClusterStarted(const QStringList& urls);
    void finishWriting(const QString& failure);

    DemoCluster m_cluster;
    DemoSimulation m_simulation;
    std::unique_ptr<MasterSet> m_writer;
    LockScopeConfig m_config;
    int m_left = 0;
    bool m_ready = false;
    bool m_finished = false;
};

} // namespace lockscope
