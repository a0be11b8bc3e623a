// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "config/lockscopeconfig.h"
#include "demo/democluster.h"
#include "demo/demolab.h"
#include "demo/demoserverprogram.h"

#include <QObject>
#include <QSet>

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

    void start(const QString& redisServer = demoServerProgram());
    bool isReady() const { return m_ready; }
    DemoCluster* cluster() { return &m_cluster; }
    DemoSimulation* simulation() { return m_lab.simulation(); }
    DemoScenarioRunner* scenarios() { return m_lab.scenarios(); }

    // The sample locks as (master index, command) pairs: what start() writes.
    static QList<QPair<int, QByteArrayList>> sampleCommands(qint64 nowWallMs);
    // Writes every sample lock again, as at the start, with its full TTL, on every master that is up:
    // the short ones expire within a minute, and a presenter wants them back.
    void renewSamples();
    // Masters that lost the sample locks (killed or restarted: the demo keeps no persistence) and
    // have not had them restored yet.
    const QSet<int>& mastersWithoutSamples() const { return m_lostSamples; }

signals:
    void ready(const lockscope::LockScopeConfig& config);
    void failed(const lockscope::RedisError& error);
    // The sample locks were written again on the masters that had lost them.
    void samplesRestored(const QList<int>& masters);

private:
    void onClusterStarted(const QStringList& urls);
    void finishWriting(const QString& failure);
    void onMasterState(int master, DemoCluster::MasterState state);
    void restoreSamplesWhenUp();
    void restoreSamples(int master, const QSet<int>& lost);

    DemoCluster m_cluster;
    DemoLab m_lab; // the simulation and its scenario runner
    std::unique_ptr<MasterSet> m_writer;
    LockScopeConfig m_config;
    QSet<int> m_lostSamples;
    bool m_restorePending = false;
    qint64 m_seededAtMs = 0; // monotonic
    qint64 m_seededWallMs = 0;
    int m_left = 0;
    bool m_ready = false;
    bool m_finished = false;
};

} // namespace lockscope
