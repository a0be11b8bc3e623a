// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "connection/nodeaddress.h"
#include "connection/redisreply.h"

#include <QList>

#include <vector>

namespace lockscope {

// Which primary serves each of the 16384 slots, and the replicas of each primary, as a value: built
// from CLUSTER SLOTS, patched slot by slot on MOVED, compared to tell what a refresh changed.
class ClusterSlotMap
{
public:
    struct Shard
    {
        NodeAddress primary;
        QByteArray primaryId;
        QList<NodeAddress> replicas;

        bool operator==(const Shard&) const = default;
    };
    struct SlotRange
    {
        int first = 0;
        int last = 0;

        bool operator==(const SlotRange&) const = default;
    };

    ClusterSlotMap();

    // `answeredBy` stands in for a node that announces an empty host (it knows only its port).
    static Result<ClusterSlotMap> fromClusterSlots(const RedisReply& reply, const NodeAddress& answeredBy);

    bool isEmpty() const { return m_shards.isEmpty(); }
    int coveredSlots() const;
    bool coversAllSlots() const { return coveredSlots() == 16384; }

    // Invalid when no primary serves the slot.
    NodeAddress primaryFor(int slot) const;
    // Every primary that serves at least one slot, sorted.
    QList<NodeAddress> primaries() const;
    const QList<Shard>& shards() const { return m_shards; }
    QList<NodeAddress> replicasOf(const NodeAddress& primary) const;
    QList<SlotRange> slotRanges(const NodeAddress& primary) const;

    // A MOVED answer: `slot` is served by `primary` from now on (added as a shard if new).
    void assign(int slot, const NodeAddress& primary);

    // Same owners for every slot and same replicas (node ids are not compared).
    bool sameTopology(const ClusterSlotMap& other) const;

private:
    int shardIndex(const NodeAddress& primary) const;

    std::vector<qint16> m_owner; // per slot: index into m_shards, -1 when unserved
    QList<Shard> m_shards;
};

} // namespace lockscope
