// SPDX-License-Identifier: Apache-2.0
#include "topology/masterset.h"

#include "topology/clusterentry.h"
#include "topology/sentinelentry.h"
#include "topology/sentinelwatcher.h"

namespace lockscope {

MasterSet::MasterSet(const QList<ConnectionOptions>& masters, QObject* parent) : QObject(parent)
{
    for (const ConnectionOptions& options : masters) {
        const int index = int(m_connections.size());
        auto* c = new RedisConnection(options, this);
        m_connections.append(c);
        m_settled.append(false);
        connect(c, &RedisConnection::stateChanged, this,
                [this, index](RedisConnection::State state, const RedisError& reason) {
                    // A Sentinel entry passes through Down on its way to the primary it was just given.
                    const SentinelEntry* sentinel = m_sentinels.value(index);
                    if (state == RedisConnection::State::Up ||
                        (state == RedisConnection::State::Down && !(sentinel && sentinel->isRetargeting())))
                        m_settled[index] = true;
                    emit masterStateChanged(index, state, reason);
                    if (!m_announcedSettled && isSettled()) {
                        m_announcedSettled = true;
                        emit settled();
                    }
                });
        connect(c, &RedisConnection::healthChanged, this, [this, index] { emit masterHealthChanged(index); });
        connect(
            c, &RedisConnection::restarted, this,
            [this, index](const QByteArray& o, const QByteArray& n) { emit masterRestarted(index, o, n); });
        SentinelEntry* sentinel = nullptr;
        if (options.topology && options.topology->isSentinel()) {
            sentinel = new SentinelEntry(options, c, this);
            connect(sentinel, &SentinelEntry::primaryResolved, this,
                    [this, index](const NodeAddress& primary) { emit primaryResolved(index, primary); });
            connect(sentinel, &SentinelEntry::primaryChanged, this,
                    [this, index](const PrimaryChange& change) { emit primaryChanged(index, change); });
        }
        m_sentinels.append(sentinel);
        if (sentinel) {
            connect(sentinel, &SentinelEntry::primaryResolved, this,
                    [this, index] { emit nodesChanged(index); });
            connect(sentinel->watcher(), &SentinelWatcher::subscribedChanged, this,
                    [this, index] { emit nodesChanged(index); });
            connect(c, &RedisConnection::stateChanged, this, [this, index] { emit nodesChanged(index); });
        }
        ClusterEntry* cluster = nullptr;
        if (options.topology && options.topology->isCluster()) {
            cluster = new ClusterEntry(options, c, this);
            connect(cluster, &ClusterEntry::primaryReplaced, this,
                    [this, index](const PrimaryChange& change) { emit primaryChanged(index, change); });
            connect(cluster, &ClusterEntry::nodesChanged, this, [this, index] { emit nodesChanged(index); });
            connect(
                cluster, &ClusterEntry::primaryRestarted, this,
                [this, index](const NodeAddress& primary) { emit clusterPrimaryRestarted(index, primary); });
        }
        m_clusters.append(cluster);
    }
}

QStringList MasterSet::namesOf(const QList<ConnectionOptions>& masters)
{
    QStringList names;
    for (const ConnectionOptions& m : masters)
        names << RedisConnection::nameOf(m);
    return names;
}

MasterSet::~MasterSet()
{
    // Before the connections they steer.
    qDeleteAll(m_sentinels);
    qDeleteAll(m_clusters);
}

int MasterSet::upCount() const
{
    int up = 0;
    for (const RedisConnection* c : m_connections)
        up += c->isUp() ? 1 : 0;
    return up;
}

void MasterSet::open()
{
    for (int i = 0; i < m_connections.size(); ++i) {
        if (m_sentinels.at(i))
            m_sentinels.at(i)->open(); // the connection opens once the sentinels name a primary
        else if (m_clusters.at(i))
            m_clusters.at(i)->open();
        else
            m_connections.at(i)->open();
    }
}

void MasterSet::close()
{
    for (SentinelEntry* s : m_sentinels)
        if (s)
            s->close();
    for (ClusterEntry* cluster : m_clusters)
        if (cluster)
            cluster->close();
    for (RedisConnection* c : m_connections)
        c->close();
}

NodeAddress MasterSet::primaryAddress(int index) const
{
    const SentinelEntry* s = m_sentinels.value(index);
    return s ? s->primary() : NodeAddress();
}

QList<MasterNode> MasterSet::nodes(int index) const
{
    if (const ClusterEntry* cluster = m_clusters.value(index))
        return cluster->nodes();
    const SentinelEntry* sentinel = m_sentinels.value(index);
    if (!sentinel)
        return {};
    QList<MasterNode> out;
    const RedisConnection* c = m_connections.at(index);
    if (const NodeAddress primary = sentinel->primary(); primary.isValid()) {
        MasterNode node;
        node.address = primary;
        node.state = c->state();
        node.detail = c->isUp() || !c->lastError().isError()
                          ? QStringLiteral("primary of %1").arg(sentinel->watcher()->url().masterName())
                          : c->lastError().message;
        node.latencyMs = c->health().latencyMs;
        out << node;
    }
    const SentinelWatcher* watcher = sentinel->watcher();
    const QList<NodeAddress>& sentinels = watcher->url().seeds();
    for (int i = 0; i < sentinels.size(); ++i) {
        MasterNode node;
        node.role = MasterNode::Role::Sentinel;
        node.address = sentinels.at(i);
        // Only the one listened to has a connection of ours kept open; the others are asked in turn.
        const bool listening = watcher->isSubscribed() && watcher->subscribedSentinel() == i;
        node.state = listening ? RedisConnection::State::Up : RedisConnection::State::Disconnected;
        node.monitored = listening;
        node.detail =
            listening ? QStringLiteral("listening for +switch-master") : QStringLiteral("asked in turn");
        out << node;
    }
    return out;
}

bool MasterSet::isSettled() const
{
    for (bool s : m_settled)
        if (!s)
            return false;
    return true;
}

} // namespace lockscope
