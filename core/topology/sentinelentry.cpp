// SPDX-License-Identifier: Apache-2.0
#include "topology/sentinelentry.h"

#include "connection/redisconnection.h"
#include "topology/sentinelwatcher.h"

namespace lockscope {

namespace {

// The watcher's own connections (to the sentinels, and the resolver's ROLE check) are named by
// the node they reach, not by the group: their errors must say which sentinel failed.
ConnectionOptions nodeOptions(ConnectionOptions options)
{
    options.topology.reset();
    return options;
}

} // namespace

SentinelEntry::SentinelEntry(const ConnectionOptions& options, RedisConnection* connection, QObject* parent)
    : QObject(parent), m_options(options), m_connection(connection),
      m_watcher(new SentinelWatcher(*options.topology, nodeOptions(options), this))
{
    connect(m_watcher, &SentinelWatcher::primaryResolved, this, [this](const NodeAddress& primary) {
        emit primaryResolved(primary);
        connectTo(QStringLiteral("the sentinels name %1 as primary").arg(primary.toString()));
    });
    connect(m_watcher, &SentinelWatcher::primaryChanged, this, [this](const PrimaryChange& change) {
        emit primaryChanged(change);
        connectTo(QStringLiteral("failover %1 → %2")
                      .arg(change.oldPrimary.toString(), change.newPrimary.toString()));
    });
    connect(m_watcher, &SentinelWatcher::resolutionFailed, this, [this](const RedisError& error) {
        // Only while no primary is known: a known one keeps its connection (and its own retries)
        // while the sentinels are being asked again.
        if (m_open && !m_watcher->primary().isValid())
            m_connection->holdDown(error);
    });
    connect(m_connection, &RedisConnection::stateChanged, this, [this](RedisConnection::State state) {
        // A lost primary is often the first sign of a failover: ask before the sentinels announce it.
        if (m_open && !m_retargeting && state == RedisConnection::State::Down &&
            m_watcher->primary().isValid())
            m_watcher->recheck();
    });
}

SentinelEntry::~SentinelEntry() = default;

void SentinelEntry::open()
{
    if (m_open)
        return;
    m_open = true;
    m_watcher->start();
}

void SentinelEntry::close()
{
    m_open = false;
    m_watcher->stop();
}

NodeAddress SentinelEntry::primary() const
{
    return m_watcher->primary();
}

void SentinelEntry::connectTo(const QString& why)
{
    if (!m_open)
        return;
    ConnectionOptions options = m_watcher->primaryOptions();
    options.topology = m_options.topology;
    m_retargeting = true;
    m_connection->retarget(options, RedisError(ErrorKind::NotConnected, QString(), why));
    m_retargeting = false;
    m_connection->open();
}

} // namespace lockscope
