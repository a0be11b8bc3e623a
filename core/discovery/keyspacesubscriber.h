// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"
#include "connection/redisconnection.h"
#include "discovery/patternechofilter.h"

#include <QTimer>

#include <functional>
#include <memory>

namespace lockscope {

// A ScanWorker's keyspace events: a subscriber connection of its own, made with the master
// connection's options, to the __keyspace@<db>__ channels of the keys the patterns match, each
// event once however many patterns match its key. Closed when destroyed (no handler runs after
// that).
//
// An event says when the server ran the command no sooner than it arrives. Once anchor() was called
// (a recorder keeps what it gives), while events come the connection PINGs every `anchorIntervalMs`: the
// server answers commands and tells events on one connection in the order it ran them, so an event that
// arrives after the answer to a PING sent at S was the effect of a command the server ran after S. That lower
// bound is what proves a holder still held its lock after another took a quorum, where the arrival time alone
// leaves a gap the size of the recorder's delay (DoubleGrantScan::releaseSeenWithinMs).
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
        // `key` had `event`, from a command the server ran after `ranAfterMs` (wall clock, ms
        // since the epoch; -1: not known). The key's bytes are the channel's: copy them to keep them.
        std::function<void(const QByteArray& key, const QByteArray& event, qint64 ranAfterMs)> event;
    };

    KeyspaceSubscriber(const ConnectionOptions& master, const QList<ScanPattern>& patterns,
                       Handlers handlers);
    ~KeyspaceSubscriber();

    // How often the connection PINGs while events come, and how long after the last event it goes
    // on (a holder's release can come long after the other token's writes, on a master of its own).
    static constexpr int anchorIntervalMs = 20;
    static constexpr qint64 anchorForMs = 10000;
    // From now on events carry a moment before the server ran them (off at first: a monitor nobody
    // records sends no PING).
    void anchor() { m_anchoring = true; }

private:
    void onMessage(const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload);
    void ping();

    QByteArray m_prefix; // "__keyspace@<db>__:"
    Handlers m_handlers;
    PatternEchoFilter m_echoes; // overlapping patterns deliver one event several times
    QTimer m_pings;
    qint64 m_lastEventAtMs = 0;  // monotonic
    qint64 m_anchorMs = -1;      // wall clock: when the last PING answered so far was sent
    bool m_pingInFlight = false; // one at a time: a paused server is not sent a queue of them
    bool m_anchoring = false;
    std::unique_ptr<RedisConnection> m_connection;
};

} // namespace lockscope
