// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"
#include "connection/redisconnection.h"
#include "discovery/patternechofilter.h"

#include <functional>
#include <memory>

namespace lockscope {

// A ScanWorker's keyspace events: a subscriber connection of its own, made with the master
// connection's options, to the __keyspace@<db>__ channels of the keys the patterns match, each
// event once however many patterns match its key. Closed when destroyed (no handler runs after
// that).
class KeyspaceSubscriber final
{
    Q_DISABLE_COPY_MOVE(KeyspaceSubscriber)

public:
    struct Handlers
    {
        // The server has registered the patterns: from now on no event slips by unseen.
        std::function<void()> listening;
        // The connection went down, for `reason`.
        std::function<void(const QString& reason)> lost;
        // `key` had `event`. The key's bytes are the channel's: copy them to keep them.
        std::function<void(const QByteArray& key, const QByteArray& event)> event;
    };

    KeyspaceSubscriber(const ConnectionOptions& master, const QList<ScanPattern>& patterns,
                       Handlers handlers);
    ~KeyspaceSubscriber();

private:
    void onMessage(const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload);

    QByteArray m_prefix; // "__keyspace@<db>__:"
    Handlers m_handlers;
    PatternEchoFilter m_echoes; // overlapping patterns deliver one event several times
    std::unique_ptr<RedisConnection> m_connection;
};

} // namespace lockscope
