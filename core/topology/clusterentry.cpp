// SPDX-License-Identifier: Apache-2.0
#include "topology/clusterentry.h"

#include "connection/redisconnection.h"
#include "topology/clusterkeyslot.h"
#include "topology/clusterrouter.h"
#include "topology/clustertopology.h"

#include <algorithm>

namespace lockscope {

namespace {

// The connections to single nodes are named by the node, not by the cluster: their errors must
// say which node failed.
ConnectionOptions nodeOptions(ConnectionOptions options)
{
    options.topology.reset();
    return options;
}

QString slotsText(const QList<ClusterSlotMap::SlotRange>& ranges)
{
    QStringList parts;
    for (const ClusterSlotMap::SlotRange& r : ranges)
        parts << (r.first == r.last ? QString::number(r.first)
                                    : QStringLiteral("%1-%2").arg(r.first).arg(r.last));
    return QStringLiteral("slots %1").arg(parts.join(QStringLiteral(", ")));
}

} // namespace

ClusterEntry::ClusterEntry(const ConnectionOptions& options, RedisConnection* connection, QObject* parent)
    : QObject(parent), m_options(options), m_connection(connection),
      m_topology(new ClusterTopology(*options.topology, nodeOptions(options), this)),
      m_router(new ClusterRouter(m_topology, this))
{
    m_connection->routeThrough(m_router);
    m_syncTimer.setSingleShot(true);
    m_syncTimer.setInterval(0);
    connect(&m_syncTimer, &QTimer::timeout, this, &ClusterEntry::syncNodes);
    m_degradedTimer.setInterval(1000);
    connect(&m_degradedTimer, &QTimer::timeout, m_topology, &ClusterTopology::refresh);
    // Queued behind the rest of the map's news: a failover is told while the old primary's
    // connection, and whatever was read from it, are still there.
    connect(m_topology, &ClusterTopology::primariesChanged, this, [this] { m_syncTimer.start(); });
    connect(m_topology, &ClusterTopology::primaryReplaced, this, &ClusterEntry::primaryReplaced);
    connect(m_topology, &ClusterTopology::slotMapChanged, this, [this] {
        updateState();
        emit nodesChanged(); // slots and replicas moved
    });
    connect(m_topology, &ClusterTopology::refreshFailed, this, [this] { updateState(); });
}

ClusterEntry::~ClusterEntry()
{
    m_connection->routeThrough(nullptr);
    for (RedisConnection* node : std::as_const(m_nodes))
        node->disconnect(this);
}

void ClusterEntry::open()
{
    if (m_open)
        return;
    m_open = true;
    m_connection->setRoutedState(RedisConnection::State::Connecting, {}, m_connection->health());
    m_topology->start();
    syncNodes(); // reopened: the map is known already
}

void ClusterEntry::close()
{
    m_open = false;
    m_syncTimer.stop();
    m_degradedTimer.stop();
    m_topology->stop();
    for (RedisConnection* node : std::as_const(m_nodes))
        node->close();
    m_connection->setRoutedState(
        RedisConnection::State::Disconnected,
        RedisError(ErrorKind::Cancelled, QString(), QStringLiteral("connection closed")), MasterHealth());
}

QList<NodeAddress> ClusterEntry::primaries() const
{
    QList<NodeAddress> out = m_nodes.keys();
    std::sort(out.begin(), out.end());
    return out;
}

void ClusterEntry::syncNodes()
{
    if (!m_open)
        return;
    const QList<NodeAddress> now = m_topology->primaries();
    QList<NodeAddress> added, removed;
    for (const NodeAddress& node : now)
        if (!m_nodes.contains(node))
            added << node;
    for (auto it = m_nodes.cbegin(); it != m_nodes.cend(); ++it)
        if (!now.contains(it.key()))
            removed << it.key();
    std::sort(removed.begin(), removed.end());
    for (const NodeAddress& node : added) {
        auto* c = new RedisConnection(m_topology->optionsFor(node), this);
        connect(c, &RedisConnection::stateChanged, this, [this] {
            updateState();
            emit nodesChanged();
        });
        connect(c, &RedisConnection::healthChanged, this, &ClusterEntry::updateState);
        connect(c, &RedisConnection::restarted, this, [this, node] { emit primaryRestarted(node); });
        m_nodes.insert(node, c);
        c->open();
    }
    if (added.isEmpty() && removed.isEmpty())
        return;
    emit primariesChanged(added, removed);
    for (const NodeAddress& node : removed) {
        RedisConnection* c = m_nodes.take(node);
        c->disconnect(this);
        c->close();
        c->deleteLater();
    }
    updateState();
    emit nodesChanged();
}

void ClusterEntry::updateState()
{
    if (!m_open)
        return;
    m_degraded =
        !m_topology->slotMap().coversAllSlots() ||
        std::any_of(m_nodes.cbegin(), m_nodes.cend(), [](const RedisConnection* c) { return !c->isUp(); });
    if (m_topology->isReady() && m_degraded) {
        if (!m_degradedTimer.isActive())
            m_degradedTimer.start();
    } else {
        m_degradedTimer.stop();
    }
    MasterHealth health;
    health.role = QStringLiteral("cluster");
    if (!m_topology->isReady()) {
        if (m_topology->lastError().isError())
            m_connection->setRoutedState(RedisConnection::State::Down, m_topology->lastError(), health);
        return;
    }
    int up = 0;
    QStringList down;
    for (const NodeAddress& node : primaries()) {
        const RedisConnection* c = m_nodes.value(node);
        if (!c->isUp()) {
            down << (c->lastError().isError() ? c->lastError().message
                                              : QStringLiteral("%1: %2").arg(
                                                    node.toString(), RedisConnection::stateName(c->state())));
            continue;
        }
        ++up;
        const MasterHealth& h = c->health();
        health.latencyMs = qMax(health.latencyMs, h.latencyMs);
        if (health.version.isEmpty()) {
            health.version = h.version;
            health.server = h.server;
            health.redisVersion = h.redisVersion;
        }
        if (!health.clockOffsetKnown && h.clockOffsetKnown) {
            health.clockOffsetMs = h.clockOffsetMs;
            health.clockOffsetKnown = true;
        }
    }
    if (up > 0)
        m_connection->setRoutedState(RedisConnection::State::Up, {}, health);
    else if (!m_nodes.isEmpty() && down.size() == m_nodes.size() &&
             std::all_of(m_nodes.cbegin(), m_nodes.cend(), [](const RedisConnection* c) {
                 return c->state() != RedisConnection::State::Connecting;
             }))
        m_connection->setRoutedState(
            RedisConnection::State::Down,
            RedisError(ErrorKind::NotConnected, QString(),
                       QStringLiteral("no primary reachable (%1)").arg(down.join(QStringLiteral("; ")))),
            health);
}

RedisError ClusterEntry::unreachable(const QByteArray& key) const
{
    const int slot = ClusterKeySlot::of(key);
    const NodeAddress primary = m_topology->slotMap().primaryFor(slot);
    if (!primary.isValid())
        return RedisError(ErrorKind::NotConnected, m_connection->name(),
                          QStringLiteral("slot %1 has no primary").arg(slot));
    const RedisConnection* c = m_nodes.value(primary);
    if (c && c->isUp())
        return {};
    const QString why =
        c && c->lastError().isError() ? c->lastError().message : QStringLiteral("not connected");
    return RedisError(
        c && c->lastError().isError() ? c->lastError().kind : ErrorKind::NotConnected, m_connection->name(),
        QStringLiteral("primary %1 of slot %2 is down (%3)").arg(primary.toString()).arg(slot).arg(why));
}

QList<MasterNode> ClusterEntry::nodes() const
{
    QList<MasterNode> out;
    const ClusterSlotMap& map = m_topology->slotMap();
    for (const NodeAddress& primary : primaries()) {
        const RedisConnection* c = m_nodes.value(primary);
        MasterNode node;
        node.role = MasterNode::Role::Primary;
        node.address = primary;
        node.state = c->state();
        node.detail = c->isUp() || !c->lastError().isError() ? slotsText(map.slotRanges(primary))
                                                             : c->lastError().message;
        node.latencyMs = c->health().latencyMs;
        out << node;
        for (const NodeAddress& replica : map.replicasOf(primary)) {
            MasterNode r;
            r.role = MasterNode::Role::Replica;
            r.address = replica;
            // Replicas are not read (locks are written to primaries only): no connection, no state.
            r.state = RedisConnection::State::Disconnected;
            r.monitored = false;
            r.detail = QStringLiteral("replica of %1").arg(primary.toString());
            r.depth = 1;
            out << r;
        }
    }
    return out;
}

} // namespace lockscope
