// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "connection/masterhealth.h"
#include "connection/pendingrequests.h"
#include "connection/reconnectbackoff.h"
#include "connection/rediscommandbatch.h"
#include "connection/redisreply.h"
#include "connection/redisscript.h"
#include "connection/replydeadline.h"
#include "connection/replystream.h"

#include <QByteArrayList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace lockscope {

class KeyRouter;
class RedisTransport;

// One asynchronous, pipelined connection to one master. Commands are written as soon as the
// connection is up (queued while it connects), replies are matched in order, and a command left
// unanswered for commandTimeoutMs, with nothing at all heard from the server meanwhile, marks the
// master down and fails everything pending with Timeout: nothing waits forever. Lost connections are retried
// with capped, jittered exponential back-off.
class RedisConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RedisConnection)

public:
    enum class State
    {
        Disconnected, // not opened, or closed on purpose
        Connecting,   // first attempt under way
        Up,
        Down,         // failed; lastError() says why; a retry is scheduled when autoReconnect is on
        Reconnecting, // a retry attempt under way
    };
    Q_ENUM(State)

    using Callback = PendingRequest::Callback;
    // A batch's answer: `replies` holds one reply per command, in order, unless `error` is set.
    using BatchCallback = PendingRequest::BatchCallback;

    explicit RedisConnection(ConnectionOptions options, QObject* parent = nullptr);
    // For tests: a scripted transport instead of a socket.
    RedisConnection(ConnectionOptions options, std::unique_ptr<RedisTransport> transport,
                    QObject* parent = nullptr);
    ~RedisConnection() override;

    void open();
    void close();
    // Sentinel entries: points this connection at another node (the new primary after a failover).
    // Whatever is pending fails with `reason`, the connection goes Down with it, and open() then
    // connects to the new node (Down, then Up). A different node's run_id is not a restart. The
    // transport becomes a socket one, also for a connection made with a scripted transport.
    void retarget(ConnectionOptions options, const RedisError& reason);
    // Down with `reason`, and no retry: there is nothing to connect to yet (no primary known).
    void holdDown(const RedisError& reason);
    // Cluster entries: this connection opens no socket of its own. Commands on a key (argv[1]) and
    // scripts go through `router` to the node that serves the key's slot; the state and health are
    // the ones the entry sets with setRoutedState (the cluster as one Redlock instance).
    // Null goes back to nothing routed (the router is about to go).
    void routeThrough(KeyRouter* router);
    bool isRouted() const { return m_router != nullptr; }
    void setRoutedState(State state, const RedisError& reason, const MasterHealth& health);

    State state() const { return m_state; }
    bool isUp() const { return m_state == State::Up; }
    const RedisError& lastError() const { return m_lastError; }
    const MasterHealth& health() const { return m_health; }
    const ConnectionOptions& options() const { return m_options; }
    // The master's URL without its password; the name used in every error message.
    const QString& name() const { return m_name; }
    // The name a connection with `options` has: its URL without the password, or its Sentinel
    // group or cluster (what recordings name masters by).
    static QString nameOf(const ConnectionOptions& options);
    int pendingCount() const { return int(m_pending.size()); }
    // Replies to commands read so far, over every connection this object made: how many of our
    // commands the server had run when a given reply came (ScanPacer counts others' by it).
    quint64 repliesRead() const { return m_repliesRead; }
    // The delay before the retry scheduled by the last failure, jitter included; -1 when none is.
    int retryDelayMs() const { return m_backoff.delayMs(); }

    // Callbacks run on this object's thread, exactly once, unless the connection is destroyed first.
    void send(const QByteArrayList& argv, Callback callback = {});
    // As send(), but the callback is skipped if `context` is gone by then.
    void send(const QByteArrayList& argv, QObject* context, Callback callback);
    // A SCAN (`argv`) whose reply keeps only the keys `keyFilter` keeps (null: all); the page's key
    // array counts the others in its `integer`. `keyFilter` must outlive this connection's requests.
    void sendScanPage(const QByteArrayList& argv, const ReplyKeyFilter* keyFilter, QObject* context,
                      Callback callback);
    // Every command of `batch` in one go, answered by one callback once the last reply is in
    // (skipped if `context` is gone by then). Same ordering, timeout and failure rules as send().
    void send(const RedisCommandBatch& batch, QObject* context, BatchCallback callback);
    // EVALSHA, falling back to EVAL when the server answers NOSCRIPT.
    void evalScript(const RedisScript& script, const QByteArrayList& keys, const QByteArrayList& args,
                    Callback callback);

    // Turns this into a subscriber connection; patterns are re-subscribed after every reconnect.
    void psubscribe(const QByteArrayList& patterns);
    void punsubscribe(const QByteArrayList& patterns);
    const QSet<QByteArray>& subscriptions() const { return m_patterns; }

    // Turns this into a MONITOR connection (the lock tracer, issue #43): once the server said OK
    // (`started`), every command it runs arrives as monitorLine(). Nothing more may be sent on it,
    // and no health PING is: a monitor's own commands get no replies in order. It is not resumed
    // after a reconnect: a trace is over when its link drops.
    void startMonitor(Callback started);
    bool isMonitoring() const { return m_monitoring; }

    static QString stateName(State state);

signals:
    void stateChanged(lockscope::RedisConnection::State state, const lockscope::RedisError& reason);
    void healthChanged();
    // The server answered with a different run_id than before: it restarted and may have lost locks.
    void restarted(const QByteArray& oldRunId, const QByteArray& newRunId);
    void messageReceived(const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload);
    // One line of MONITOR's stream, as the server wrote it (MonitorLineParser reads it).
    void monitorLine(const QByteArray& line);

private:
    friend class DispatchWindow;
    using Pending = PendingRequest;
    static constexpr qint64 readSliceBytes = 256 * 1024; // what onReadyRead takes from the socket at a time
    void attachTransport(std::unique_ptr<RedisTransport> transport);
    void startAttempt();
    void onOpened();
    void onReadyRead();
    // The reply that comes next: its request's filter (never a subscriber's message's), and whether
    // anything waits for it (a message, a MONITOR line or a request).
    ReplyStream::Next nextReply() const
    {
        const bool none = m_pending.noneWritten();
        return {m_inSubscribeMode || none ? nullptr : m_pending.next().keyFilter,
                m_inSubscribeMode || m_monitoring || !none};
    }
    void onTransportFailed(ErrorKind kind, const QString& message);
    void sendHandshake();
    RedisError notConnectedError() const;
    void finishHandshake();
    // The socket, the reader, unsent bytes and every timer but the reconnect one: what a failure and a
    // stop both end.
    void dropLink();
    void fail(ErrorKind kind, const QString& message);
    // Everything stops without a retry: the socket, the timers, and every pending command fails with `error`.
    void stopWith(State state, const RedisError& error);
    std::vector<Pending> takeAllPending();
    void failAll(std::vector<Pending> pending, const RedisError& error);
    void setState(State state, const RedisError& reason = {});
    // The one way a user's command or batch goes out: written when up, queued while connecting,
    // failed otherwise. `appendBytes(QByteArray&)` appends its encoding to the buffer it is given.
    template <typename AppendBytes> void enqueue(Pending pending, AppendBytes&& appendBytes);
    void writeNow(const QByteArrayList& argv, Pending pending);
    void pushWritten(bool first, Pending pending);
    void writeRaw(const QByteArray& bytes, Pending pending);
    // PSUBSCRIBE or PUNSUBSCRIBE: the server confirms each pattern with a reply of its own.
    void writeSubscription(const QByteArray& command, const QByteArrayList& patterns);
    void flushOut();
    // Sends what is buffered now, unless nothing is (DispatchWindow's end, a read's end).
    void flushHeld();
    void scheduleFlush();
    void sendPing();
    void dispatch(RedisReply&& incoming);

    ConnectionOptions m_options;
    QString m_name;
    KeyRouter* m_router = nullptr;
    std::unique_ptr<RedisTransport> m_transport;
    ReplyStream m_stream; // replies parsed from what the transport reads
    State m_state = State::Disconnected;
    RedisError m_lastError;
    MasterHealth m_health;
    QByteArray m_knownRunId;

    PendingRequests m_pending;        // written (awaiting replies) or queued behind the handshake
    QByteArray m_outBuffer;           // written this event-loop pass, flushed once
    QList<RedisReply> m_batchReplies; // the replies so far of the batch whose replies come next
    int m_handshakeLeft = 0;
    bool m_linkOpened = false; // this attempt's transport is open (the handshake may still wait)
    bool m_inSubscribeMode = false;
    bool m_monitoring = false;
    QSet<QByteArray> m_patterns;
    bool m_pingInFlight = false;
    quint64 m_repliesRead = 0;

    ReplyDeadline m_deadline;
    ReconnectBackoff m_backoff;
    QTimer m_flushTimer;
    QTimer m_connectTimer;
    QTimer m_healthTimer;
};

} // namespace lockscope
