// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/connectionoptions.h"
#include "connection/nodeaddress.h"
#include "topology/masternode.h"
#include "topology/primarychange.h"

#include <QHash>
#include <QObject>
#include <QTimer>

namespace lockscope {

class ClusterRouter;
class ClusterTopology;
class RedisConnection;

// One master entry of the MasterSet that names a Redis Cluster: one Redlock instance however many
// primaries it has. It keeps the slot map current (ClusterTopology), routes the entry connection's
// commands by key (ClusterRouter), and holds one connection per primary for that primary's health
// and scanner. The entry connection is up while at least one primary is; a key whose slot has no
// reachable primary is unreadable on its own (unreachable()).
class ClusterEntry final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterEntry)

public:
    // `options.topology` must be a cluster TopologyUrl; `connection` is the entry's connection.
    ClusterEntry(const ConnectionOptions& options, RedisConnection* connection, QObject* parent = nullptr);
    ~ClusterEntry() override;

    void open();
    void close();

    ClusterTopology* topology() const { return m_topology; }
    ClusterRouter* router() const { return m_router; }
    // The primaries this entry holds a connection to, sorted.
    QList<NodeAddress> primaries() const;
    RedisConnection* nodeConnection(const NodeAddress& primary) const { return m_nodes.value(primary); }
    // The primaries, each followed by its replicas, for the masters panel.
    QList<MasterNode> nodes() const;
    // Some primary is not up, or some slot has no primary. Kept by updateState(), which every change
    // of a node's state or of the map runs: the monitor asks on every flush.
    bool isDegraded() const { return m_degraded; }
    // Why `key` cannot be read on this entry now; no error when its slot's primary is up.
    RedisError unreachable(const QByteArray& key) const;

signals:
    // Primaries whose connection was made or is about to go (the connections of `removed` are
    // deleted right after this returns).
    void primariesChanged(const QList<lockscope::NodeAddress>& added,
                          const QList<lockscope::NodeAddress>& removed);
    // A replica took over a primary's slots; comes before primariesChanged drops the old primary.
    void primaryReplaced(const lockscope::PrimaryChange& change);
    // Membership or state of a node changed (not its latency).
    void nodesChanged();
    // A primary answered with another run_id than before: it restarted, and what it held may be gone.
    void primaryRestarted(const lockscope::NodeAddress& primary);

private:
    void syncNodes();
    void updateState();

    ConnectionOptions m_options;
    RedisConnection* m_connection;
    ClusterTopology* m_topology;
    ClusterRouter* m_router;
    QHash<NodeAddress, RedisConnection*> m_nodes;
    QTimer m_syncTimer; // node changes wait for the failover signals of the same map
    // While a primary is down, the map is read every second: the failover that replaces it is
    // announced by no one, and the periodic refresh would see it only seconds later.
    QTimer m_degradedTimer;
    bool m_open = false;
    bool m_degraded = false;
};

} // namespace lockscope
