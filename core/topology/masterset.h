// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "connection/nodeaddress.h"
#include "connection/redisconnection.h"
#include "topology/masternode.h"
#include "topology/primarychange.h"

#include <QList>
#include <QObject>
#include <QStringList>

namespace lockscope {

// The N independent masters a Redlock spans, opened together. Index i is master i everywhere
// (observations, quorum diagrams, audit lines), so the order of the configuration is kept.
class ClusterEntry;
class SentinelEntry;

// A Sentinel group is one entry (it counts once towards N and `needed`): its connection follows the
// group's current primary, and its name stays the group's redacted redis-sentinel:// URL. A Redis
// Cluster is one entry too: its connection routes each command by key (ClusterEntry).
class MasterSet final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MasterSet)

public:
    explicit MasterSet(const QList<ConnectionOptions>& masters, QObject* parent = nullptr);
    ~MasterSet() override;

    // The names a set of `masters` would have (what recordings name masters by), without connecting.
    static QStringList namesOf(const QList<ConnectionOptions>& masters);

    int size() const { return int(m_connections.size()); }
    // Quorum: a strict majority, N/2+1.
    int needed() const { return size() / 2 + 1; }
    RedisConnection* at(int index) const { return m_connections.at(index); }
    const QList<RedisConnection*>& connections() const { return m_connections; }
    int upCount() const;

    void open();
    void close();
    // True once every master has either come up or failed its first attempt.
    bool isSettled() const;

    // True when entry `index` names a Sentinel group.
    bool isSentinel(int index) const { return m_sentinels.value(index) != nullptr; }
    // The Sentinel group's current primary; invalid for a plain master or before the first answer.
    NodeAddress primaryAddress(int index) const;
    // True when entry `index` names a Redis Cluster; cluster() is then its entry, else null.
    bool isCluster(int index) const { return m_clusters.value(index) != nullptr; }
    ClusterEntry* cluster(int index) const { return m_clusters.value(index); }
    // The nodes behind a group entry (a cluster's primaries and replicas, a Sentinel group's primary
    // and sentinels); empty for a plain master.
    QList<MasterNode> nodes(int index) const;

signals:
    void masterStateChanged(int index, lockscope::RedisConnection::State state,
                            const lockscope::RedisError& reason);
    void masterHealthChanged(int index);
    void masterRestarted(int index, const QByteArray& oldRunId, const QByteArray& newRunId);
    void settled();
    // Sentinel entries: the first primary named, and each verified failover. primaryChanged comes
    // before the entry's connection leaves the old primary.
    void primaryResolved(int index, const lockscope::NodeAddress& primary);
    // Cluster entries: a replica took over a primary's slots (told before the old primary's
    // scanner goes).
    void primaryChanged(int index, const lockscope::PrimaryChange& change);
    // Membership or state of a group entry's nodes changed.
    void nodesChanged(int index);
    // A cluster entry's primary restarted (masterRestarted is for the entry's own connection).
    void clusterPrimaryRestarted(int index, const lockscope::NodeAddress& primary);

private:
    QList<RedisConnection*> m_connections;
    QList<SentinelEntry*> m_sentinels; // per entry; null unless a Sentinel group
    QList<ClusterEntry*> m_clusters;   // per entry; null unless a cluster
    QList<bool> m_settled;
    bool m_announcedSettled = false;
};

} // namespace lockscope
