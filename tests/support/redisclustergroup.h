// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "support/redisserver.h"

#include <QMap>

#include <memory>
#include <vector>

namespace lockscope::test {

// A real Redis Cluster on loopback: `primaries` × (1 + `replicasPerPrimary`) cluster-enabled
// redis-server processes (node timeout 1 s), joined with `redis-cli --cluster create ...
// --cluster-replicas N --cluster-yes`. start() returns once every node reports cluster_state:ok and all
// agree on the slot map. Every process is stopped by pid when the group goes.
class RedisClusterGroup
{
public:
    bool start(int primaries = 3, int replicasPerPrimary = 1, const RedisServerOptions& options = {});
    const QString& errorString() const { return m_error; }
    int size() const { return int(m_nodes.size()); }
    RedisServer& at(int i) { return *m_nodes.at(size_t(i)); }
    int indexOfPort(quint16 port) const;

    // redis-cluster://127.0.0.1:p1,...: the first `seeds` nodes (all when -1), credentials when `withSecret`.
    QString url(int seeds = -1, bool withSecret = true) const;
    ConnectionOptions nodeOptions(int timeoutMs = 2000) const;

    // From CLUSTER SLOTS on a running node: slot ranges' owner, by node index.
    int primaryForSlot(int slot) const;
    // Indexes of the nodes that serve slots now, sorted.
    QList<int> primaryIndexes() const;
    // The index of a replica of primary `primary` (by CLUSTER REPLICAS), -1 when none.
    int replicaOf(int primary) const;
    QByteArray nodeId(int i) const;
    // A key whose slot is served by node `primary` ("<prefix><n>" for the first n that fits).
    QByteArray keyOn(int primary, const QByteArray& prefix) const;

    // Polls until every running node says cluster_state:ok and all agree on CLUSTER SLOTS, which
    // lists every replica.
    bool waitForConsistent(int timeoutMs = 30000);

    // A slot move in its steps, as redis-cli --cluster reshard does it.
    bool beginSlotMigration(int slot, int from, int to); // IMPORTING on `to`, MIGRATING on `from`
    bool migrateKey(const QByteArray& key, int from, int to);
    bool finishSlotMigration(int slot, int from, int to); // SETSLOT NODE on every primary

private:
    QByteArray slotsSignature(int node) const; // CLUSTER SLOTS as comparable text

    std::vector<std::unique_ptr<RedisServer>> m_nodes;
    QString m_error;
    int m_replicasPerPrimary = 0;
};

} // namespace lockscope::test
