// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/connectionoptions.h"
#include "connection/nodeaddress.h"
#include "connection/topologyurl.h"
#include "topology/primarychange.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lockscope {

class RedisConnection;
class SentinelResolver;

// Keeps track of the primary of one Sentinel group, without user action: resolves it, subscribes to
// +switch-master on one sentinel (moving to the next when that one goes away) and resolves again on
// every switch, on every re-subscription (a switch may have been missed meanwhile) and every
// recheckIntervalMs. Each verified change of primary is reported once, with both addresses.
class SentinelWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SentinelWatcher)

public:
    struct Options
    {
        int recheckIntervalMs = 10000; // 0: only on events
        int retryDelayMs = 500;        // after a failed resolution
    };

    // `url` must be a Sentinel TopologyUrl; `nodeOptions` gives TLS settings and timeouts.
    SentinelWatcher(TopologyUrl url, ConnectionOptions nodeOptions, Options options,
                    QObject* parent = nullptr);
    SentinelWatcher(TopologyUrl url, ConnectionOptions nodeOptions, QObject* parent = nullptr);
    ~SentinelWatcher() override;

    void start();
    void stop();

    const TopologyUrl& url() const { return m_url; }
    // Invalid until the first resolution succeeds.
    const NodeAddress& primary() const { return m_primary; }
    // Connection options for the current primary (credentials and db from the URL).
    ConnectionOptions primaryOptions() const;
    // True once the +switch-master subscription is in place on some sentinel.
    bool isSubscribed() const;
    int subscribedSentinel() const { return m_sentinelIndex; }
    const RedisError& lastError() const { return m_lastError; }

    // Asks the sentinels again now, e.g. because the primary's connection dropped.
    void recheck();

signals:
    // The first verified primary (and again after stop()/start()).
    void primaryResolved(const lockscope::NodeAddress& primary);
    // A failover: the primary is now another node, verified with ROLE.
    void primaryChanged(const lockscope::PrimaryChange& change);
    // Sentinels announced a switch (the payload's addresses), before it is verified.
    void switchAnnounced(const lockscope::PrimaryChange& announced);
    void resolutionFailed(const lockscope::RedisError& error);
    void subscribedChanged(bool subscribed);

private:
    void onResolved(const NodeAddress& primary, int sentinelIndex);
    void onFailed(const RedisError& error);
    void subscribeTo(int sentinelIndex);
    void onMessage(const QByteArray& channel, const QByteArray& payload);

    TopologyUrl m_url;
    ConnectionOptions m_nodeOptions;
    Options m_options;
    SentinelResolver* m_resolver;
    QPointer<RedisConnection> m_subscriber;
    NodeAddress m_primary;
    RedisError m_lastError;
    int m_sentinelIndex = -1;
    bool m_running = false;
    bool m_recheckAgain = false;
    QTimer m_recheckTimer;
    QTimer m_retryTimer;
};

} // namespace lockscope
