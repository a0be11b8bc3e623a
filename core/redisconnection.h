#pragma once

#include "connectionoptions.h"
#include "masterhealth.h"
#include "redisreply.h"
#include "redisscript.h"

#include <QByteArrayList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

struct redisReader;

namespace lockscope {

class RedisTransport;

// One asynchronous, pipelined connection to one master. Commands are written as soon as the
// connection is up (queued while it connects), replies are matched in order, and a command left
// unanswered for commandTimeoutMs marks the master down and fails everything pending with Timeout:
// nothing waits forever. Lost connections are retried with capped, jittered exponential back-off.
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

    using Callback = std::function<void(const RedisResult&)>;

    explicit RedisConnection(ConnectionOptions options, QObject* parent = nullptr);
    // For tests: a scripted transport instead of a socket.
    RedisConnection(ConnectionOptions options, std::unique_ptr<RedisTransport> transport, QObject* parent = nullptr);
    ~RedisConnection() override;

    void open();
    void close();

    State state() const { return m_state; }
    bool isUp() const { return m_state == State::Up; }
    const RedisError& lastError() const { return m_lastError; }
    const MasterHealth& health() const { return m_health; }
    const ConnectionOptions& options() const { return m_options; }
    // The master's URL without its password; the name used in every error message.
    const QString& name() const { return m_name; }
    int pendingCount() const { return int(m_sent.size() + m_queued.size()); }

    // Callbacks run on this object's thread, exactly once, unless the connection is destroyed first.
    void send(const QByteArrayList& argv, Callback callback = {});
    // As send(), but the callback is skipped if `context` is gone by then.
    void send(const QByteArrayList& argv, QObject* context, Callback callback);
    // EVALSHA, falling back to EVAL when the server answers NOSCRIPT.
    void evalScript(const RedisScript& script, const QByteArrayList& keys, const QByteArrayList& args,
                    Callback callback);

    // Turns this into a subscriber connection; patterns are re-subscribed after every reconnect.
    void psubscribe(const QByteArrayList& patterns);
    void punsubscribe(const QByteArrayList& patterns);
    const QSet<QByteArray>& subscriptions() const { return m_patterns; }

    static QString stateName(State state);

signals:
    void stateChanged(lockscope::RedisConnection::State state, const lockscope::RedisError& reason);
    void healthChanged();
    // The server answered with a different run_id than before: it restarted and may have lost locks.
    void restarted(const QByteArray& oldRunId, const QByteArray& newRunId);
    void messageReceived(const QByteArray& pattern, const QByteArray& channel, const QByteArray& payload);

private:
    struct Pending
    {
        Callback callback;
        QPointer<QObject> context;
        bool hasContext = false;
        qint64 deadline = 0; // monotonic ms
    };
    struct Queued
    {
        QByteArray bytes;
        Pending pending;
    };
    struct ReaderDeleter
    {
        void operator()(redisReader* reader) const;
    };

    void startAttempt();
    void onOpened();
    void onReadyRead();
    void onTransportFailed(ErrorKind kind, const QString& message);
    void sendHandshake();
    void finishHandshake();
    void fail(ErrorKind kind, const QString& message);
    void failAll(std::deque<Pending> pending, const RedisError& error);
    void setState(State state, const RedisError& reason = {});
    void writeNow(const QByteArray& bytes, Pending pending);
    void scheduleFlush();
    void armTimeout();
    void onTimeout();
    void sendPing();
    void dispatch(const RedisReply& reply);
    static void deliver(Pending& pending, const RedisResult& result);
    Pending makePending(Callback callback, QObject* context) const;

    ConnectionOptions m_options;
    QString m_name;
    std::unique_ptr<RedisTransport> m_transport;
    std::unique_ptr<redisReader, ReaderDeleter> m_reader;
    State m_state = State::Disconnected;
    RedisError m_lastError;
    MasterHealth m_health;
    QByteArray m_knownRunId;

    std::deque<Pending> m_sent;   // written, awaiting replies in order
    std::deque<Queued> m_queued;  // waiting for the handshake to finish
    QByteArray m_outBuffer;       // written this event-loop pass, flushed once
    int m_handshakeLeft = 0;
    bool m_inSubscribeMode = false;
    QSet<QByteArray> m_patterns;
    bool m_pingInFlight = false;
    int m_attempt = 0;

    QTimer m_flushTimer;
    QTimer m_timeoutTimer;
    QTimer m_connectTimer;
    QTimer m_reconnectTimer;
    QTimer m_healthTimer;
};

} // namespace lockscope
