// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "demo/democluster.h"
#include "demo/democounters.h"
#include "demo/demofencedstorage.h"
#include "demo/demohold.h"
#include "demo/demooutage.h"
#include "demo/demoscenario.h"
#include "demo/demotask.h"
#include "locking/redlocklease.h"

#include <QList>
#include <QObject>

#include <memory>

namespace lockscope {

class DemoClient;
class DemoFailover;
class DemoFencingCounter;
class MasterSet;
class Redlock;

// The live Redlock demo's moving parts, headless: simulated clients contending for a few resources
// through the core's Redlock on the demo cluster, the fenced storage they write to, the record of
// every hold and master outage (what the timeline draws), the counters, and the guided scenarios.
//
// The clients stand for other applications, not for the operator: their writes are not audited and
// read-only mode (which governs the window's own actions) does not stop them.
class DemoSimulation final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoSimulation)

public:
    // `cluster` must outlive this object.
    explicit DemoSimulation(DemoCluster* cluster, QObject* parent = nullptr);
    ~DemoSimulation() override;

    static constexpr int backgroundClients = 4;
    static constexpr qint64 backgroundTtlMs = 4000;
    // Scenario clients A and B come after the background ones.
    static constexpr int clientA = backgroundClients;
    static constexpr int clientB = backgroundClients + 1;

    // Connects to the masters in `config` (the cluster's) and starts the background clients.
    void start(const LockScopeConfig& config, bool background = true);
    void stop();
    bool isStarted() const { return m_masters != nullptr; }

    DemoCluster* cluster() const { return m_cluster; }
    MasterSet* masters() const { return m_masters.get(); }
    Redlock* redlock() const { return m_redlock.get(); }
    DemoFencedStorage* storage() { return &m_storage; }
    // The Sentinel group and plain clients of the failover scenario (idle until it runs).
    DemoFailover* failover() const { return m_failover; }
    const QList<DemoClient*>& clients() const { return m_clients; }
    DemoClient* client(int index) const { return m_clients.at(index); }
    static QString clientName(int index);

    const QList<QByteArray>& lanes() const { return m_lanes; }
    const QList<DemoHold>& holds() const { return m_holds; }
    const QList<DemoOutage>& outages() const { return m_outages; }
    const DemoCounters& counters() const { return m_counters; }
    qint64 originMs() const { return m_originMs; }

    void setBackgroundRunning(bool on);
    bool isBackgroundRunning() const { return m_background; }
    // A stop-the-world pause longer than the client's TTL.
    void pauseClient(int index);
    // Restarts every killed master and resumes every paused one.
    void healMasters();
    // Every master is running and this simulation's connection to it is up.
    bool allMastersUp() const;
    bool isMasterUp(int index) const;

    static DemoTask taskFor(const QByteArray& resource, qint64 ttlMs, qint64 workMs);
    // Every resource the simulated clients lock: the background ones and the scenarios' own.
    static QList<QByteArray> clientResources();
    // A key the simulated clients write: one of clientResources() or its fencing counter. The
    // window summarises the keyspace events of these keys instead of listing each one; the demo's
    // sample locks and anything else on the masters are not among them.
    static bool isClientKey(const QByteArray& key);

    // A hold taken outside the Redlock clients (the failover scenario's single-instance SET NX PX),
    // drawn on the timeline and checked for overlap like any other. It has no fencing number (-1).
    void recordOutsideHold(int client, const QByteArray& resource, const QByteArray& token, qint64 ttlMs);
    // Ends every open hold of `resource` taken through recordOutsideHold().
    void endOutsideHolds(const QByteArray& resource, const QString& how);

signals:
    // stop() begins: a scenario playing on the simulation ends here.
    void stopping();
    void changed(); // holds, outages or counters: repaint
    void note(const QString& text);
    void clientStateChanged(int client);
    void written(const lockscope::DemoWrite& write);
    // healMasters() was called (the panel's "Restore all masters", or a scenario setting up).
    void healRequested();

private:
    void onAcquired(int client, const RedlockLease& lease, qint64 fencing);
    void onHoldEnded(int client, const QByteArray& resource, qint64 atMs, const QString& how);
    void addHold(DemoHold hold);
    void onMasterState(int master, DemoCluster::MasterState state);
    void addLane(const QByteArray& resource);
    void trim();

    DemoCluster* m_cluster;
    DemoFencedStorage m_storage;
    std::unique_ptr<MasterSet> m_masters;
    std::unique_ptr<Redlock> m_redlock;
    std::unique_ptr<DemoFencingCounter> m_counter;
    QList<DemoClient*> m_clients;
    DemoFailover* m_failover;
    QList<QByteArray> m_lanes;
    QList<DemoHold> m_holds;
    QList<DemoOutage> m_outages;
    DemoCounters m_counters;
    qint64 m_originMs;
    bool m_background = false;
};

} // namespace lockscope
