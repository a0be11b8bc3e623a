// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/connectionoptions.h"
#include "connection/nodeaddress.h"
#include "connection/topologyurl.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace lockscope {

class RedisConnection;

// One asynchronous answer to "which node is the primary of this Sentinel group now?". The sentinels
// are asked in turn (SENTINEL get-master-addr-by-name), starting with `firstSentinel`, and the answer
// is believed only once the named node itself says ROLE master: a sentinel cut off from the others
// can name a stale primary. ROLE is asked before AUTH where the server allows it, so that a node
// that is not a primary never gets the credentials. Emits exactly one of resolved() or failed() per
// resolve().
class SentinelResolver final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SentinelResolver)

public:
    // `nodeOptions` gives TLS settings and timeouts; its url is ignored (the TopologyUrl decides).
    SentinelResolver(TopologyUrl url, ConnectionOptions nodeOptions, QObject* parent = nullptr);
    ~SentinelResolver() override;

    // Starts a resolution; one already under way is abandoned (it emits nothing more).
    void resolve(int firstSentinel = 0);
    // Abandons a resolution under way: it emits nothing more.
    void cancel();
    bool isRunning() const { return m_running; }

    // Connection options for a node of this group (a sentinel or a data node).
    static ConnectionOptions optionsFor(const ConnectionOptions& nodeOptions, const RedisUrl& url);

signals:
    // `sentinelIndex`: the seed whose answer was verified.
    void resolved(const lockscope::NodeAddress& primary, int sentinelIndex);
    void failed(const lockscope::RedisError& error);

private:
    void askSentinel();
    void verify(const NodeAddress& candidate);
    // ROLE on `candidate` through `url`; `beforeAuth`: `url` carries no credentials, and a server
    // that wants them is asked again with them.
    void checkRole(const NodeAddress& candidate, const RedisUrl& url, bool beforeAuth);
    void nextSentinel(const QString& why);
    void finish(const RedisError& error);
    void dropConnection();

    TopologyUrl m_url;
    ConnectionOptions m_nodeOptions;
    QPointer<RedisConnection> m_connection;
    quint64 m_generation = 0; // callbacks of an abandoned resolution see a newer generation
    int m_first = 0;
    int m_tried = 0;
    int m_current = 0;
    bool m_running = false;
    int m_unknownName = 0;
    int m_unreachable = 0;
    ErrorKind m_lastTransportError = ErrorKind::None;
    QStringList m_reasons;
};

} // namespace lockscope
