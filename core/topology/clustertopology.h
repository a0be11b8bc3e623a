// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/connectionoptions.h"
#include "connection/topologyurl.h"
#include "topology/clusterslotmap.h"
#include "topology/primarychange.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lockscope {

class RedisConnection;

// The slot map of one Redis Cluster, kept current: CLUSTER SLOTS from the first node that answers
// (the node that answered last time, then the known primaries and replicas, then the seeds), again on
// refresh() (after a MOVED, a lost node) and every refreshIntervalMs. Concurrent refresh requests
// are coalesced into at most one more round. Reports what changed: primaries that came and went,
// and failovers (a shard's slots now served by what was its replica).
class ClusterTopology final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterTopology)

public:
    struct Options
    {
        int refreshIntervalMs = 10000; // 0: only on request
        int retryDelayMs = 500;        // after a round in which no node answered
    };

    // `url` must be a cluster TopologyUrl; `nodeOptions` gives TLS settings and timeouts.
    ClusterTopology(TopologyUrl url, ConnectionOptions nodeOptions, Options options,
                    QObject* parent = nullptr);
    ClusterTopology(TopologyUrl url, ConnectionOptions nodeOptions, QObject* parent = nullptr);
    ~ClusterTopology() override;

    void start();
    void stop();
    void refresh();

    const TopologyUrl& url() const { return m_url; }
    // Ready once a slot map was read; it may still miss slots while the cluster heals.
    bool isReady() const { return !m_map.isEmpty(); }
    const ClusterSlotMap& slotMap() const { return m_map; }
    QList<NodeAddress> primaries() const { return m_map.primaries(); }
    // Whether `node` belongs to this cluster as far as we know: a primary or replica of the slot map,
    // or a configured seed. Only such nodes are given the credentials.
    bool knowsNode(const NodeAddress& node) const;
    // A round is under way, or one more is due after it.
    bool isRefreshing() const { return m_inRound || m_again; }
    // Connection options for one node (credentials from the URL, TLS and timeouts from nodeOptions).
    ConnectionOptions optionsFor(const NodeAddress& node) const;
    const RedisError& lastError() const { return m_lastError; }
    int refreshCount() const { return m_refreshCount; }

    // A MOVED answer, applied at once for this slot; a refresh follows for the rest of the map.
    void applyMoved(int slot, const NodeAddress& primary);

signals:
    // Every successful round, changed or not.
    void refreshed();
    void slotMapChanged();
    void primariesChanged(const QList<lockscope::NodeAddress>& added,
                          const QList<lockscope::NodeAddress>& removed);
    // A replica took over its primary's slots.
    void primaryReplaced(const lockscope::PrimaryChange& change);
    void refreshFailed(const lockscope::RedisError& error);

private:
    QList<NodeAddress> candidates() const;
    void tryNext();
    void adopt(ClusterSlotMap map, const NodeAddress& answeredBy);
    void dropConnection();

    TopologyUrl m_url;
    ConnectionOptions m_nodeOptions;
    Options m_options;
    ClusterSlotMap m_map;
    NodeAddress m_lastAnswered;
    RedisError m_lastError;
    QPointer<RedisConnection> m_connection;
    QList<NodeAddress> m_round; // nodes still to ask in this round
    QStringList m_reasons;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_inRound = false;
    bool m_again = false;
    int m_refreshCount = 0;
    QTimer m_intervalTimer;
    QTimer m_retryTimer;
};

} // namespace lockscope
