// SPDX-License-Identifier: Apache-2.0
#include "discovery/keyspacesubscriber.h"

#include "base/monotonicclock.h"

#include <QDateTime>

namespace lockscope {

KeyspaceSubscriber::KeyspaceSubscriber(const ConnectionOptions& master, const QList<ScanPattern>& patterns,
                                       Handlers handlers)
    : m_prefix("__keyspace@" + QByteArray::number(master.url.db()) + "__:"), m_handlers(std::move(handlers))
{
    ConnectionOptions options = master;
    options.clientName = "lockscope-events";
    m_connection = std::make_unique<RedisConnection>(options);
    RedisConnection* connection = m_connection.get();
    QObject::connect(connection, &RedisConnection::messageReceived, connection,
                     [this](const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload) {
                         onMessage(pattern, channel, payload);
                     });
    QObject::connect(connection, &RedisConnection::stateChanged, connection,
                     [this](RedisConnection::State state) {
                         if (state == RedisConnection::State::Up) {
                             // PSUBSCRIBE went out ahead of Up; a PING behind it is answered only once the
                             // server has registered the patterns.
                             m_connection->send({"PING"}, m_connection.get(), [this](const RedisResult& r) {
                                 if (r.ok() && !r.reply.isError())
                                     m_handlers.listening();
                             });
                         } else if (state == RedisConnection::State::Down) {
                             m_pingInFlight = false;
                             m_echoes = {}; // a copy lost with the connection must not hide the next event
                             m_handlers.lost(m_connection->lastError().message);
                         }
                     });
    QByteArrayList channels;
    for (const ScanPattern& p : patterns)
        channels << m_prefix + p.match;
    m_connection->psubscribe(channels);
    m_pings.setInterval(anchorIntervalMs);
    QObject::connect(&m_pings, &QTimer::timeout, connection, [this] { ping(); });
    m_connection->open();
}

KeyspaceSubscriber::~KeyspaceSubscriber()
{
    m_connection->disconnect();
    m_connection->close();
}

void KeyspaceSubscriber::onMessage(const QByteArray& pattern, const QByteArray& channel,
                                   const QByteArray& payload)
{
    if (!channel.startsWith(m_prefix) || !m_echoes.isNewEvent(pattern, channel, payload))
        return;
    m_lastEventAtMs = monotonicMs();
    if (m_anchoring && !m_pings.isActive())
        m_pings.start();
    m_handlers.event(
        QByteArray::fromRawData(channel.constData() + m_prefix.size(), channel.size() - m_prefix.size()),
        payload, m_anchorMs);
}

void KeyspaceSubscriber::ping()
{
    if (monotonicMs() - m_lastEventAtMs > anchorForMs) {
        m_pings.stop(); // quiet: an idle monitor sends nothing
        return;
    }
    if (m_pingInFlight || m_connection->state() != RedisConnection::State::Up)
        return;
    m_pingInFlight = true;
    const qint64 sentAtMs = QDateTime::currentMSecsSinceEpoch();
    m_connection->send({"PING"}, m_connection.get(), [this, sentAtMs](const RedisResult& r) {
        m_pingInFlight = false;
        if (r.ok() && !r.reply.isError())
            m_anchorMs = qMax(m_anchorMs, sentAtMs);
    });
}

} // namespace lockscope
