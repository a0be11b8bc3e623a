// SPDX-License-Identifier: Apache-2.0
#include "topology/sentinelwatcher.h"

#include "base/bytesdisplay.h"

#include "connection/redisconnection.h"
#include "topology/sentinelresolver.h"

namespace lockscope {

namespace {

const QByteArray switchChannel = "+switch-master";

} // namespace

SentinelWatcher::SentinelWatcher(TopologyUrl url, ConnectionOptions nodeOptions, QObject* parent)
    : SentinelWatcher(std::move(url), std::move(nodeOptions), Options{}, parent)
{}

SentinelWatcher::SentinelWatcher(TopologyUrl url, ConnectionOptions nodeOptions, Options options,
                                 QObject* parent)
    : QObject(parent), m_url(std::move(url)), m_nodeOptions(std::move(nodeOptions)), m_options(options),
      m_resolver(new SentinelResolver(m_url, m_nodeOptions, this))
{
    connect(m_resolver, &SentinelResolver::resolved, this, &SentinelWatcher::onResolved);
    connect(m_resolver, &SentinelResolver::failed, this, &SentinelWatcher::onFailed);
    m_recheckTimer.setTimerType(Qt::CoarseTimer);
    connect(&m_recheckTimer, &QTimer::timeout, this, &SentinelWatcher::recheck);
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &SentinelWatcher::recheck);
}

SentinelWatcher::~SentinelWatcher()
{
    stop();
}

void SentinelWatcher::start()
{
    stop();
    m_running = true;
    m_primary = {};
    m_resolver->resolve(0);
    if (m_options.recheckIntervalMs > 0)
        m_recheckTimer.start(m_options.recheckIntervalMs);
}

void SentinelWatcher::stop()
{
    m_running = false;
    m_recheckAgain = false;
    m_recheckTimer.stop();
    m_retryTimer.stop();
    m_resolver->cancel();
    if (m_subscriber) {
        m_subscriber->disconnect(this);
        m_subscriber->close();
        m_subscriber->deleteLater();
        m_subscriber = nullptr;
    }
    m_sentinelIndex = -1;
}

ConnectionOptions SentinelWatcher::primaryOptions() const
{
    ConnectionOptions options = m_nodeOptions;
    options.url = m_url.nodeUrl(m_primary);
    return options;
}

bool SentinelWatcher::isSubscribed() const
{
    return m_subscriber && m_subscriber->isUp();
}

void SentinelWatcher::recheck()
{
    if (!m_running)
        return;
    if (m_resolver->isRunning()) {
        m_recheckAgain = true; // the answer under way may predate what prompted this
        return;
    }
    m_retryTimer.stop();
    m_resolver->resolve(qMax(0, m_sentinelIndex));
}

void SentinelWatcher::onResolved(const NodeAddress& primary, int sentinelIndex)
{
    if (!m_running)
        return;
    m_lastError = {};
    const NodeAddress previous = m_primary;
    m_primary = primary;
    if (!previous.isValid())
        emit primaryResolved(primary);
    else if (previous != primary)
        emit primaryChanged({previous, primary});
    if (!m_subscriber)
        subscribeTo(sentinelIndex);
    if (std::exchange(m_recheckAgain, false))
        recheck();
}

void SentinelWatcher::onFailed(const RedisError& error)
{
    if (!m_running)
        return;
    m_lastError = error;
    m_recheckAgain = false;
    emit resolutionFailed(error);
    m_retryTimer.start(m_options.retryDelayMs);
}

void SentinelWatcher::subscribeTo(int sentinelIndex)
{
    if (m_subscriber) {
        m_subscriber->disconnect(this);
        m_subscriber->close();
        m_subscriber->deleteLater();
    }
    m_sentinelIndex = sentinelIndex;
    ConnectionOptions options = m_nodeOptions;
    options.url = m_url.seedUrl(sentinelIndex);
    // A lost sentinel is replaced by the next one rather than waited for.
    options.autoReconnect = false;
    auto* subscriber = new RedisConnection(options, this);
    m_subscriber = subscriber;
    connect(subscriber, &RedisConnection::messageReceived, this,
            [this](const QByteArray&, const QByteArray& channel, const QByteArray& payload) {
                onMessage(channel, payload);
            });
    connect(subscriber, &RedisConnection::stateChanged, this,
            [this, subscriber, sentinelIndex](RedisConnection::State state, const RedisError&) {
                if (subscriber != m_subscriber)
                    return;
                if (state == RedisConnection::State::Up) {
                    emit subscribedChanged(true);
                    // A switch may have happened between the resolution and the subscription.
                    recheck();
                } else if (state == RedisConnection::State::Down) {
                    emit subscribedChanged(false);
                    const int next = (sentinelIndex + 1) % int(m_url.seeds().size());
                    QTimer::singleShot(m_options.retryDelayMs, this, [this, subscriber, next] {
                        if (m_running && subscriber == m_subscriber)
                            subscribeTo(next);
                    });
                    recheck();
                }
            });
    subscriber->psubscribe({switchChannel});
    subscriber->open();
}

void SentinelWatcher::onMessage(const QByteArray& channel, const QByteArray& payload)
{
    if (channel != switchChannel)
        return;
    // "<master-name> <old-ip> <old-port> <new-ip> <new-port>"
    const QList<QByteArray> words = payload.split(' ');
    if (words.size() != 5 || words[0] != m_url.masterName().toUtf8())
        return;
    const PrimaryChange announced{{escapeBytes(words[1]), quint16(words[2].toUInt())},
                                  {escapeBytes(words[3]), quint16(words[4].toUInt())}};
    emit switchAnnounced(announced);
    recheck();
}

} // namespace lockscope
