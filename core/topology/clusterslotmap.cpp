// SPDX-License-Identifier: Apache-2.0
#include "topology/clusterslotmap.h"

#include "base/bytesdisplay.h"

#include "topology/clusterkeyslot.h"

#include <algorithm>

namespace lockscope {

namespace {

RedisError malformed(const NodeAddress& node, const QString& why)
{
    return {ErrorKind::Protocol, node.toString(), QStringLiteral("unexpected CLUSTER SLOTS reply: ") + why};
}

bool readNode(const RedisReply& entry, const NodeAddress& answeredBy, NodeAddress* node, QByteArray* id)
{
    if (!entry.isArray() || entry.elements.size() < 2 || !entry.elements[0].isString() ||
        !entry.elements[1].isInteger() || entry.elements[1].integer <= 0 || entry.elements[1].integer > 65535)
        return false;
    const QByteArray& host = entry.elements[0].string;
    // An empty host, or "?" in some versions, means "the address you reached me at".
    node->host = host.isEmpty() || host == "?" ? answeredBy.host : escapeBytes(host);
    node->port = quint16(entry.elements[1].integer);
    *id = entry.elements.size() > 2 && entry.elements[2].isString() ? entry.elements[2].string : QByteArray();
    return node->isValid();
}

} // namespace

ClusterSlotMap::ClusterSlotMap() : m_owner(ClusterKeySlot::slotCount, qint16(-1)) {}

Result<ClusterSlotMap> ClusterSlotMap::fromClusterSlots(const RedisReply& reply,
                                                        const NodeAddress& answeredBy)
{
    if (reply.isError())
        return RedisError(ErrorKind::ServerError, answeredBy.toString(),
                          QStringLiteral("CLUSTER SLOTS failed: ") + escapeBytes(reply.string));
    if (!reply.isArray())
        return malformed(answeredBy, QStringLiteral("not an array"));
    ClusterSlotMap map;
    for (const RedisReply& range : reply.elements) {
        if (!range.isArray() || range.elements.size() < 3 || !range.elements[0].isInteger() ||
            !range.elements[1].isInteger())
            return malformed(answeredBy, QStringLiteral("bad slot range"));
        const qint64 first = range.elements[0].integer, last = range.elements[1].integer;
        if (first < 0 || last < first || last >= ClusterKeySlot::slotCount)
            return malformed(answeredBy,
                             QStringLiteral("slot range %1-%2 out of bounds").arg(first).arg(last));
        Shard shard;
        if (!readNode(range.elements[2], answeredBy, &shard.primary, &shard.primaryId))
            return malformed(answeredBy, QStringLiteral("bad primary entry"));
        int index = map.shardIndex(shard.primary);
        if (index < 0) {
            map.m_shards.append(shard);
            index = int(map.m_shards.size() - 1);
        }
        Shard& target = map.m_shards[index];
        for (qsizetype i = 3; i < range.elements.size(); ++i) {
            NodeAddress replica;
            QByteArray id;
            if (!readNode(range.elements[i], answeredBy, &replica, &id))
                return malformed(answeredBy, QStringLiteral("bad replica entry"));
            if (!target.replicas.contains(replica))
                target.replicas.append(replica);
        }
        std::fill(map.m_owner.begin() + first, map.m_owner.begin() + last + 1, qint16(index));
    }
    for (Shard& shard : map.m_shards)
        std::sort(shard.replicas.begin(), shard.replicas.end());
    return map;
}

int ClusterSlotMap::shardIndex(const NodeAddress& primary) const
{
    for (qsizetype i = 0; i < m_shards.size(); ++i)
        if (m_shards[i].primary == primary)
            return int(i);
    return -1;
}

int ClusterSlotMap::coveredSlots() const
{
    return int(std::count_if(m_owner.begin(), m_owner.end(), [](qint16 owner) { return owner >= 0; }));
}

NodeAddress ClusterSlotMap::primaryFor(int slot) const
{
    if (slot < 0 || slot >= ClusterKeySlot::slotCount)
        return {};
    const qint16 owner = m_owner[size_t(slot)];
    return owner >= 0 ? m_shards[owner].primary : NodeAddress();
}

QList<NodeAddress> ClusterSlotMap::primaries() const
{
    std::vector<bool> serving(size_t(m_shards.size()), false);
    for (qint16 owner : m_owner)
        if (owner >= 0)
            serving[size_t(owner)] = true;
    QList<NodeAddress> out;
    for (qsizetype i = 0; i < m_shards.size(); ++i)
        if (serving[size_t(i)])
            out.append(m_shards[i].primary);
    std::sort(out.begin(), out.end());
    return out;
}

QList<NodeAddress> ClusterSlotMap::replicasOf(const NodeAddress& primary) const
{
    const int index = shardIndex(primary);
    return index >= 0 ? m_shards[index].replicas : QList<NodeAddress>();
}

QList<ClusterSlotMap::SlotRange> ClusterSlotMap::slotRanges(const NodeAddress& primary) const
{
    QList<SlotRange> out;
    const int index = shardIndex(primary);
    if (index < 0)
        return out;
    for (int slot = 0; slot < ClusterKeySlot::slotCount; ++slot) {
        if (m_owner[size_t(slot)] != index)
            continue;
        if (!out.isEmpty() && out.last().last == slot - 1)
            out.last().last = slot;
        else
            out.append({slot, slot});
    }
    return out;
}

void ClusterSlotMap::assign(int slot, const NodeAddress& primary)
{
    if (slot < 0 || slot >= ClusterKeySlot::slotCount || !primary.isValid())
        return;
    int index = shardIndex(primary);
    if (index < 0) {
        m_shards.append(Shard{primary, {}, {}});
        index = int(m_shards.size() - 1);
    }
    m_owner[size_t(slot)] = qint16(index);
}

bool ClusterSlotMap::sameTopology(const ClusterSlotMap& other) const
{
    for (int slot = 0; slot < ClusterKeySlot::slotCount; ++slot)
        if (primaryFor(slot) != other.primaryFor(slot))
            return false;
    for (const NodeAddress& primary : primaries())
        if (replicasOf(primary) != other.replicasOf(primary))
            return false;
    return true;
}

} // namespace lockscope
