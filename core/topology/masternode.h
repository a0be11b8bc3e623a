// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/nodeaddress.h"
#include "connection/redisconnection.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace lockscope {

// One node behind a master entry that names a group: a cluster's primaries (with their replicas), or
// a Sentinel group's current primary and the sentinel it listens to. The masters panel shows them as
// child rows of the entry; a plain master has none.
struct MasterNode
{
    enum class Role
    {
        Primary,
        Replica,
        Sentinel,
    };

    Role role = Role::Primary;
    NodeAddress address;
    RedisConnection::State state = RedisConnection::State::Disconnected;
    // Why it is not up, or what it serves: "slots 0-5460", "replica of 127.0.0.1:7000", "listening".
    QString detail;
    double latencyMs = -1;
    int depth = 0; // 0: a child of the entry; 1: a replica under its primary
    // False for nodes LockScope holds no connection to (a cluster's replicas, the sentinels asked
    // only in turn): their state is not known, and is shown as such rather than as "disconnected".
    bool monitored = true;

    bool operator==(const MasterNode&) const = default;
};

QString masterNodeRoleName(MasterNode::Role role);

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::MasterNode)
