// SPDX-License-Identifier: Apache-2.0
#include "topology/clustertopology.h"

#include "connection/redisconnection.h"
#include "topology/probeconnection.h"

#include <algorithm>

namespace lockscope {

namespace {

// What `after` has that `before` had not (`added`), and the other way round (`removed`), in order.
void compareNodes(const QList<NodeAddress>& before, const QList<NodeAddress>& after,
                  QList<NodeAddress>* added, QList<NodeAddress>* removed)
{
    for (const NodeAddress& node : after)
        if (!before.contains(node))
            *added << node;
    for (const NodeAddress& node : before)
        if (!after.contains(node))
            *removed << node;
}

} // namespace

ClusterTopology::ClusterTopology(TopologyUrl url, ConnectionOptions nodeOptions, QObject* parent)
    : ClusterTopology(std::move(url), std::move(nodeOptions), Options{}, parent)
{}

ClusterTopology::ClusterTopology(TopologyUrl url, ConnectionOptions nodeOptions, Options options,
                                 QObject* parent)
    : QObject(parent), m_url(std::move(url)), m_nodeOptions(std::move(nodeOptions)), m_options(options)
{
    m_intervalTimer.setTimerType(Qt::CoarseTimer);
    connect(&m_intervalTimer, &QTimer::timeout, this, &ClusterTopology::refresh);
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &ClusterTopology::refresh);
}

ClusterTopology::~ClusterTopology()
{
    stop();
}

void ClusterTopology::start()
{
    m_running = true;
    if (m_options.refreshIntervalMs > 0)
        m_intervalTimer.start(m_options.refreshIntervalMs);
    refresh();
}

void ClusterTopology::stop()
{
    m_running = false;
    m_inRound = false;
    m_again = false;
    ++m_generation;
    m_intervalTimer.stop();
    m_retryTimer.stop();
    dropConnection();
}

ConnectionOptions ClusterTopology::optionsFor(const NodeAddress& node) const
{
    ConnectionOptions options = m_nodeOptions;
    options.url = m_url.nodeUrl(node);
    return options;
}

bool ClusterTopology::knowsNode(const NodeAddress& node) const
{
    if (m_url.seeds().contains(node))
        return true;
    for (const ClusterSlotMap::Shard& shard : m_map.shards())
        if (shard.primary == node || shard.replicas.contains(node))
            return true;
    return false;
}

void ClusterTopology::dropConnection()
{
    dropProbeConnection(m_connection, this);
}

QList<NodeAddress> ClusterTopology::candidates() const
{
    QList<NodeAddress> out;
    auto add = [&out](const NodeAddress& node) {
        if (node.isValid() && !out.contains(node))
            out.append(node);
    };
    add(m_lastAnswered);
    for (const ClusterSlotMap::Shard& shard : m_map.shards())
        add(shard.primary);
    for (const ClusterSlotMap::Shard& shard : m_map.shards())
        for (const NodeAddress& replica : shard.replicas)
            add(replica);
    for (const NodeAddress& seed : m_url.seeds())
        add(seed);
    return out;
}

void ClusterTopology::refresh()
{
    if (!m_running)
        return;
    if (m_inRound) {
        m_again = true; // the round under way may have read the map before what prompted this
        return;
    }
    m_retryTimer.stop();
    m_inRound = true;
    m_again = false;
    m_reasons.clear();
    m_round = candidates();
    tryNext();
}

void ClusterTopology::tryNext()
{
    if (m_round.isEmpty()) {
        m_inRound = false;
        dropConnection();
        m_lastError = {
            ErrorKind::ConnectionLost, m_url.toString(),
            tr("no cluster node answered CLUSTER SLOTS (%1)").arg(m_reasons.join(QStringLiteral("; ")))};
        emit refreshFailed(m_lastError);
        m_retryTimer.start(m_options.retryDelayMs);
        return;
    }
    const NodeAddress node = m_round.takeFirst();
    const QString wanted = m_url.nodeUrl(node).toString();
    // The node that answered last time is usually asked again: keep its connection.
    if (!m_connection || m_connection->name() != wanted || !m_connection->isUp()) {
        dropConnection();
        ConnectionOptions options = optionsFor(node);
        options.autoReconnect = false;
        options.healthIntervalMs = 0;
        m_connection = new RedisConnection(options, this);
        m_connection->open();
    }
    const quint64 generation = ++m_generation;
    m_connection->send({"CLUSTER", "SLOTS"}, this, [this, generation, node](const RedisResult& result) {
        if (generation != m_generation)
            return;
        if (!result.ok()) {
            m_reasons << result.error.toString();
            tryNext();
            return;
        }
        Result<ClusterSlotMap> map = ClusterSlotMap::fromClusterSlots(result.reply, node);
        if (!map) {
            m_reasons << map.error().toString();
            tryNext();
            return;
        }
        if (map->isEmpty()) {
            m_reasons << tr("%1: serves no slots (not part of a cluster yet?)").arg(node.toString());
            tryNext();
            return;
        }
        m_inRound = false;
        m_lastError = {};
        adopt(std::move(*map), node);
        if (std::exchange(m_again, false))
            refresh();
    });
}

void ClusterTopology::adopt(ClusterSlotMap map, const NodeAddress& answeredBy)
{
    ++m_refreshCount;
    m_lastAnswered = answeredBy;
    const ClusterSlotMap old = std::exchange(m_map, std::move(map));
    if (!old.isEmpty() && old.sameTopology(m_map)) {
        emit refreshed();
        return;
    }
    QList<NodeAddress> added, removed;
    compareNodes(old.primaries(), m_map.primaries(), &added, &removed);
    QList<PrimaryChange> failovers;
    for (const NodeAddress& gone : removed) {
        const QList<ClusterSlotMap::SlotRange> ranges = old.slotRanges(gone);
        if (ranges.isEmpty())
            continue;
        const NodeAddress successor = m_map.primaryFor(ranges.first().first);
        if (old.replicasOf(gone).contains(successor))
            failovers << PrimaryChange{gone, successor};
    }
    emit slotMapChanged();
    if (!added.isEmpty() || !removed.isEmpty())
        emit primariesChanged(added, removed);
    for (const PrimaryChange& change : failovers)
        emit primaryReplaced(change);
    emit refreshed();
}

void ClusterTopology::applyMoved(int slot, const NodeAddress& primary)
{
    if (m_map.primaryFor(slot) != primary) {
        const QList<NodeAddress> before = m_map.primaries();
        m_map.assign(slot, primary);
        const QList<NodeAddress> after = m_map.primaries();
        emit slotMapChanged();
        if (before != after) {
            QList<NodeAddress> added, removed;
            compareNodes(before, after, &added, &removed);
            emit primariesChanged(added, removed);
        }
    }
    refresh();
}

} // namespace lockscope
