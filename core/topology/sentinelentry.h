// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/connectionoptions.h"
#include "connection/nodeaddress.h"
#include "topology/primarychange.h"

#include <QObject>

namespace lockscope {

class RedisConnection;
class SentinelWatcher;

// One master entry of the MasterSet that names a Sentinel group: it keeps the entry's one
// RedisConnection pointed at the group's current primary. The connection is down (with the
// resolution error as its reason) until the sentinels name a primary, is retargeted on every
// verified failover, and a dropped primary connection makes the sentinels be asked again at once
// rather than at the next periodic check.
class SentinelEntry final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SentinelEntry)

public:
    // `options.topology` must be a Sentinel TopologyUrl.
    SentinelEntry(const ConnectionOptions& options, RedisConnection* connection, QObject* parent = nullptr);
    ~SentinelEntry() override;

    void open();
    void close();

    // Invalid until the sentinels named a verified primary.
    NodeAddress primary() const;
    SentinelWatcher* watcher() const { return m_watcher; }
    // True while the connection goes Down on its way to a new primary.
    bool isRetargeting() const { return m_retargeting; }

signals:
    void primaryResolved(const lockscope::NodeAddress& primary);
    // Emitted before the connection moves, so that whoever listens still sees what was read from
    // the old primary.
    void primaryChanged(const lockscope::PrimaryChange& change);

private:
    void connectTo(const QString& why);

    ConnectionOptions m_options;
    RedisConnection* m_connection;
    SentinelWatcher* m_watcher;
    bool m_open = false;
    bool m_retargeting = false; // the Down of our own retarget is no news
};

} // namespace lockscope
