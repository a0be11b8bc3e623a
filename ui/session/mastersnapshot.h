// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/masterhealth.h"
#include "connection/redisconnection.h"
#include "discovery/notificationmode.h"
#include "topology/masternode.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

namespace lockscope {

// One master as the window sees it: copied out of the core thread, so the GUI never touches a
// RedisConnection.
struct MasterSnapshot
{
    int index = 0;
    QString name; // URL without password
    RedisConnection::State state = RedisConnection::State::Disconnected;
    QString error;
    MasterHealth health;
    NotificationMode mode = NotificationMode::Unknown;
    QString modeReason;
    QDateTime restartedAt; // invalid until the run_id changed while we watched
    int timeoutMs = 0;
    bool sentinel = false; // the entry names a Sentinel group ...
    QString primary;       // ... whose current primary is this host:port (empty until known)
    bool cluster = false;  // the entry names a Redis Cluster
    // A group's nodes, in the panel's order: each primary followed by its replicas (depth 1), or a
    // Sentinel group's primary and the sentinel listened to. Empty for a plain master.
    QList<MasterNode> nodes;
    // Its last full pass: the keys it has (DBSIZE; -1 until a pass has run), how many the patterns
    // matched, and how many of those are locks.
    qint64 keyCount = -1;
    qint64 matchedKeys = -1;
    qint64 lockKeys = -1;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::MasterSnapshot)
