// SPDX-License-Identifier: Apache-2.0
#include "connection/redisconnection.h"

#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "connection/connectionhandshake.h"
#include "connection/dispatchwindow.h"
#include "connection/keyrouter.h"
#include "connection/sockettransport.h"

#include <utility>

namespace lockscope {

RedisConnection::RedisConnection(ConnectionOptions options, QObject* parent)
    : RedisConnection(options, std::make_unique<SocketTransport>(options), parent)
{}

RedisConnection::RedisConnection(ConnectionOptions options, std::unique_ptr<RedisTransport> transport,
                                 QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_name(nameOf(m_options)),
      m_deadline(
          m_pending, m_options, [this] { return m_transport->hasUnreadBytes(); },
          [this] {
              fail(ErrorKind::Timeout,
                   QStringLiteral("no reply within %1 ms").arg(m_options.commandTimeoutMs));
          }),
      m_backoff(m_options, [this] { startAttempt(); })
{
    attachTransport(std::move(transport));

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(0);
    connect(&m_flushTimer, &QTimer::timeout, this, &RedisConnection::flushOut);
    m_connectTimer.setSingleShot(true);
    m_connectTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        // A server that took the connection but never answered (paused, overloaded, not Redis) is
        // another problem than one nobody reached: say which.
        fail(ErrorKind::Timeout, (m_linkOpened ? QStringLiteral("connected, no reply within %1 ms")
                                               : QStringLiteral("no connection within %1 ms"))
                                     .arg(m_options.connectTimeoutMs));
    });
    connect(&m_healthTimer, &QTimer::timeout, this, &RedisConnection::sendPing);
}

void RedisConnection::attachTransport(std::unique_ptr<RedisTransport> transport)
{
    if (m_transport) {
        m_transport->disconnect(this);
        m_transport->abort();
        // Not deleted here: this may run inside one of its signals.
        m_transport.release()->deleteLater();
    }
    m_transport = std::move(transport);
    m_transport->setParent(nullptr);
    connect(m_transport.get(), &RedisTransport::opened, this, &RedisConnection::onOpened);
    connect(m_transport.get(), &RedisTransport::readyRead, this, &RedisConnection::onReadyRead);
    connect(m_transport.get(), &RedisTransport::failed, this, &RedisConnection::onTransportFailed);
}

void RedisConnection::retarget(ConnectionOptions options, const RedisError& reason)
{
    // options() is the new node's by the time anyone hears of Down, and a slot that reopens at
    // once reaches the new node.
    m_options = std::move(options);
    m_name = nameOf(m_options);
    m_knownRunId.clear();
    m_health = MasterHealth();
    attachTransport(std::make_unique<SocketTransport>(m_options));
    holdDown(reason);
}

void RedisConnection::holdDown(const RedisError& reason)
{
    stopWith(State::Down, RedisError(reason.kind == ErrorKind::None ? ErrorKind::NotConnected : reason.kind,
                                     m_name, reason.message));
}

void RedisConnection::stopWith(State state, const RedisError& error)
{
    m_backoff.cancel();
    dropLink();
    std::vector<Pending> pending = takeAllPending();
    setState(state, error);
    failAll(std::move(pending), error);
}

void RedisConnection::routeThrough(KeyRouter* router)
{
    m_router = router;
}

void RedisConnection::setRoutedState(State state, const RedisError& reason, const MasterHealth& health)
{
    const bool healthChanged = !(health == m_health);
    m_health = health;
    setState(state, reason.isError() ? RedisError(reason.kind, m_name, reason.message) : reason);
    if (healthChanged)
        emit this->healthChanged();
}

RedisConnection::~RedisConnection()
{
    // Callbacks are not run here: their owners may already be half destroyed.
    m_transport->disconnect(this);
    m_transport->abort();
}

void RedisConnection::open()
{
    if (m_router)
        return; // the cluster entry brings its nodes up and sets the state
    if (m_state == State::Connecting || m_state == State::Reconnecting || m_state == State::Up)
        return;
    m_backoff.reset();
    startAttempt();
}

void RedisConnection::close()
{
    stopWith(State::Disconnected,
             RedisError(ErrorKind::Cancelled, m_name, QStringLiteral("connection closed")));
}

void RedisConnection::startAttempt()
{
    const bool retry = m_state == State::Down;
    // open() while a retry is scheduled must not let that retry tear down this attempt later.
    m_backoff.cancel();
    m_stream.open(m_options.replyLimits);
    m_outBuffer.clear();
    m_inSubscribeMode = false;
    m_monitoring = false;
    m_pingInFlight = false;
    m_handshakeLeft = 0;
    m_linkOpened = false;
    m_deadline.forget();
    setState(retry ? State::Reconnecting : State::Connecting);
    m_connectTimer.start(m_options.connectTimeoutMs);
    m_transport->open();
}

void RedisConnection::onOpened()
{
    m_linkOpened = true;
    sendHandshake();
}

void RedisConnection::sendHandshake()
{
    // The handshake is pipelined; queued user commands wait for all of it, so that a failed AUTH
    // or SELECT can never let them run against the wrong database.
    for (ConnectionHandshake::Step& step : ConnectionHandshake::steps(m_options, &m_health)) {
        ++m_handshakeLeft;
        writeNow(step.argv, Pending::make(
                                [this, onReply = std::move(step.onReply)](const RedisResult& result) {
                                    if (!result.ok() || m_state == State::Up)
                                        return;
                                    if (const auto failure = onReply(result.reply)) {
                                        fail(failure->kind, failure->message);
                                        return;
                                    }
                                    if (--m_handshakeLeft == 0)
                                        finishHandshake();
                                },
                                nullptr));
    }
}

void RedisConnection::finishHandshake()
{
    m_connectTimer.stop();
    m_backoff.reset();
    // Re-subscriptions and queued commands go out before anyone hears of Up, so that a command a
    // slot sends then cannot overtake older ones.
    if (!m_patterns.isEmpty()) {
        m_inSubscribeMode = true;
        writeSubscription("PSUBSCRIBE", QByteArrayList(m_patterns.cbegin(), m_patterns.cend()));
    }
    // Deadlines of queued commands were set when they were queued: waiting counts against them.
    m_pending.writeQueued(&m_outBuffer);
    scheduleFlush();
    m_deadline.arm();
    if (m_options.healthIntervalMs > 0)
        m_healthTimer.start(m_options.healthIntervalMs);

    const QByteArray previous = m_knownRunId;
    m_knownRunId = m_health.runId;
    setState(State::Up);
    emit healthChanged();
    if (!previous.isEmpty() && !m_health.runId.isEmpty() && previous != m_health.runId)
        emit restarted(previous, m_health.runId);
}

// Defined before its two callers, the send() of one command and of a batch.
template <typename AppendBytes> void RedisConnection::enqueue(Pending pending, AppendBytes&& appendBytes)
{
    switch (m_state) {
    case State::Up: {
        const bool first = m_outBuffer.isEmpty();
        appendBytes(m_outBuffer);
        pushWritten(first, std::move(pending));
        return;
    }
    case State::Connecting:
    case State::Reconnecting:
        // The wait for the handshake counts against a queued command's time.
        m_pending.queue(std::move(pending), monotonicMs() + m_options.commandTimeoutMs, appendBytes);
        m_deadline.arm();
        return;
    case State::Down:
    case State::Disconnected:
        pending.deliver({notConnectedError(), {}});
        return;
    }
}

void RedisConnection::send(const QByteArrayList& argv, Callback callback)
{
    send(argv, nullptr, std::move(callback));
}

void RedisConnection::send(const QByteArrayList& argv, QObject* context, Callback callback)
{
    if (m_router && argv.size() >= 2 && KeyRouter::takesKeyFirst(argv.at(0))) {
        m_router->send(argv.at(1), argv, context, std::move(callback));
        return;
    }
    Pending pending = Pending::make(std::move(callback), context);
    if (m_router) {
        pending.deliver({RedisError(ErrorKind::InvalidArgument, m_name,
                                    QStringLiteral("%1 is not a command on one key, and a cluster "
                                                   "entry routes commands by their key")
                                        .arg(escapeBytes(argv.value(0)))),
                         {}});
        return;
    }
    if (argv.isEmpty()) {
        pending.deliver(
            {RedisError(ErrorKind::InvalidArgument, m_name, QStringLiteral("empty command")), {}});
        return;
    }
    enqueue(std::move(pending), [&argv](QByteArray& out) { appendRespCommand(out, argv); });
}

void RedisConnection::sendScanPage(const QByteArrayList& argv, const ReplyKeyFilter* keyFilter,
                                   QObject* context, Callback callback)
{
    if (m_router || argv.isEmpty()) {
        send(argv, context, std::move(callback)); // fails as any such command does
        return;
    }
    Pending pending = Pending::make(std::move(callback), context);
    pending.keyFilter = keyFilter;
    enqueue(std::move(pending), [&argv](QByteArray& out) { appendRespCommand(out, argv); });
}

RedisError RedisConnection::notConnectedError() const
{
    const QString why = m_state == State::Down && m_lastError.isError()
                            ? QStringLiteral("master is down (%1)").arg(m_lastError.message)
                            : QStringLiteral("not connected");
    return RedisError(ErrorKind::NotConnected, m_name, why);
}

void RedisConnection::send(const RedisCommandBatch& batch, QObject* context, BatchCallback callback)
{
    Pending pending = Pending::make({}, context);
    // Never empty: dispatch() tells a batch's entry by it.
    pending.batchCallback = callback ? std::move(callback) : [](const RedisError&, QList<RedisReply>&) {};
    pending.replies = batch.size();
    if (m_router && !batch.isEmpty()) {
        // A batch's commands may belong to different nodes; readers send them one by one instead.
        pending.deliver({RedisError(ErrorKind::InvalidArgument, m_name,
                                    QStringLiteral("a cluster entry does not take command batches")),
                         {}});
        return;
    }
    if (batch.isEmpty()) {
        QList<RedisReply> none;
        if (pending.batchCallback && pending.isWanted())
            pending.batchCallback(RedisError(), none);
        return;
    }
    enqueue(std::move(pending), [&batch](QByteArray& out) { out += batch.bytes(); });
}

void RedisConnection::evalScript(const RedisScript& script, const QByteArrayList& keys,
                                 const QByteArrayList& args, Callback callback)
{
    if (m_router) {
        m_router->evalScript(script, keys, args, nullptr, std::move(callback));
        return;
    }
    QByteArrayList tail{QByteArray::number(keys.size())};
    tail << keys << args;
    QByteArrayList evalsha{"EVALSHA", script.sha1()};
    evalsha << tail;
    send(evalsha,
         [this, source = script.source(), tail, callback = std::move(callback)](const RedisResult& result) {
             if (result.isServerError() && result.reply.errorCode() == "NOSCRIPT") {
                 QByteArrayList eval{"EVAL", source};
                 eval << tail;
                 send(eval, callback);
                 return;
             }
             if (callback)
                 callback(result);
         });
}

void RedisConnection::psubscribe(const QByteArrayList& patterns)
{
    QByteArrayList fresh;
    for (const QByteArray& p : patterns)
        if (!m_patterns.contains(p)) {
            m_patterns.insert(p);
            fresh << p;
        }
    if (fresh.isEmpty() || m_state != State::Up)
        return; // sent after the next handshake
    m_inSubscribeMode = true;
    writeSubscription("PSUBSCRIBE", fresh);
}

void RedisConnection::punsubscribe(const QByteArrayList& patterns)
{
    QByteArrayList gone;
    for (const QByteArray& p : patterns)
        if (m_patterns.remove(p))
            gone << p;
    if (gone.isEmpty() || m_state != State::Up)
        return;
    writeSubscription("PUNSUBSCRIBE", gone);
}

void RedisConnection::writeSubscription(const QByteArray& command, const QByteArrayList& patterns)
{
    QByteArrayList argv{command};
    argv << patterns;
    QByteArray bytes;
    appendRespCommand(bytes, argv);
    // The bytes go with the first pattern's entry; the others only wait for their confirmations.
    for (qsizetype i = 0; i < patterns.size(); ++i)
        writeRaw(i == 0 ? bytes : QByteArray(), Pending::make({}, nullptr));
}

// The timeout clock of these commands starts when flushOut() hands them to the transport.
void RedisConnection::writeNow(const QByteArrayList& argv, Pending pending)
{
    const bool first = m_outBuffer.isEmpty();
    appendRespCommand(m_outBuffer, argv);
    pushWritten(first, std::move(pending));
}

// `first`: m_outBuffer was empty before this command's bytes were appended.
void RedisConnection::pushWritten(bool first, Pending pending)
{
    // A non-empty m_outBuffer always has the flush timer running, so only the first command of a
    // pass needs to start it.
    const bool idle = m_pending.noneWritten();
    m_pending.pushWritten(std::move(pending));
    if (idle && !DispatchWindow::isOpen()) {
        // Nothing in flight: a lone command (a Redlock SET, a PING) goes out now instead of one
        // event-loop pass later; what follows in this pass is batched behind it as usual.
        m_flushTimer.stop();
        flushOut();
    } else if (first) {
        // Written by a reply's callback to an idle connection: it leaves with the others this read's
        // callbacks write, when the dispatch ends.
        if (idle)
            DispatchWindow::hold(this);
        m_flushTimer.start();
    }
}

void RedisConnection::flushHeld()
{
    if (m_outBuffer.isEmpty())
        return;
    m_flushTimer.stop();
    flushOut();
}

void RedisConnection::writeRaw(const QByteArray& bytes, Pending pending)
{
    m_outBuffer += bytes;
    m_pending.pushWritten(std::move(pending));
    scheduleFlush();
}

void RedisConnection::flushOut()
{
    if (m_outBuffer.isEmpty())
        return;
    m_pending.flushed(monotonicMs() + m_options.commandTimeoutMs);
    // Out of the member before writing: flushing a TLS socket can deliver replies at once (readyRead
    // from inside flush()), their callbacks append new commands, and the flush that follows them must
    // not send these bytes a second time (their replies would then have no command).
    QByteArray out;
    out.swap(m_outBuffer);
    m_transport->write(out);
    m_transport->flush();
    m_deadline.arm();
    // Keep the buffer's capacity for the next pass unless the transport still shares it, a huge
    // command grew it, or new commands are already waiting: the steady state appends without allocating.
    if (m_outBuffer.isEmpty() && out.isDetached() && out.capacity() <= 1024 * 1024) {
        out.truncate(0);
        m_outBuffer.swap(out);
    }
}

void RedisConnection::scheduleFlush()
{
    if (!m_outBuffer.isEmpty() && !m_flushTimer.isActive())
        m_flushTimer.start();
}

void RedisConnection::startMonitor(Callback started)
{
    send({"MONITOR"}, this, [this, started = std::move(started)](const RedisResult& result) {
        if (result.ok() && result.reply.isStatus()) {
            m_monitoring = true;
            m_healthTimer.stop();
        }
        if (started)
            started(result);
    });
}

void RedisConnection::sendPing()
{
    if (m_state != State::Up || m_pingInFlight || m_monitoring)
        return;
    m_pingInFlight = true;
    const qint64 sentNs = monotonicNs();
    writeNow({"PING"}, Pending::make(
                           [this, sentNs](const RedisResult& result) {
                               m_pingInFlight = false;
                               if (!result.ok())
                                   return;
                               m_health.latencyMs = double(monotonicNs() - sentNs) / 1e6;
                               emit healthChanged();
                           },
                           nullptr));
}

void RedisConnection::onReadyRead()
{
    const DispatchWindow window;
    // A slice at a time: a burst that piled up while this thread was busy (a flood of keyspace
    // events) is parsed as it is copied out of the socket's buffer, not copied whole first (32 MB at
    // once with a million locks changing).
    for (;;) {
        QByteArray bytes = m_transport->read(readSliceBytes);
        if (bytes.isEmpty())
            break;
        if (!m_stream.isOpen())
            return;
        const bool more = bytes.size() == readSliceBytes;
        m_deadline.heard();
        switch (m_stream.feed(
            std::move(bytes), [this] { return nextReply(); },
            [this](RedisReply&& reply) { dispatch(std::move(reply)); })) {
        case ReplyStream::Outcome::Failed: {
            // The stream cannot be trusted any further. The reason is copied out first, since failing
            // drops the reader that holds it.
            const ErrorKind kind = m_stream.errorKind();
            const QString reason = m_stream.error();
            fail(kind, reason);
            return;
        }
        case ReplyStream::Outcome::Reset:
            return; // a callback closed, failed or reopened this connection
        case ReplyStream::Outcome::Drained:
            break;
        }
        if (!more)
            break;
    }
    // What the callbacks asked for (the next SCAN page, the reads of this one) leaves now, not after
    // every other ready socket has been served: the server works while we digest these replies.
    flushHeld();
}

void RedisConnection::dispatch(RedisReply&& incoming)
{
    // Out of the reader's slot first: a slot or callback running a nested event loop refills it.
    RedisReply reply = std::move(incoming);
    if (m_monitoring && reply.isStatus() && m_pending.noneWritten()) {
        emit monitorLine(reply.string);
        return;
    }
    if (m_inSubscribeMode && reply.isArray() && !reply.elements.isEmpty()) {
        const QByteArray& kind = reply.elements.front().string;
        if (kind == "pmessage" && reply.elements.size() == 4) {
            emit messageReceived(reply.elements[1].string, reply.elements[2].string,
                                 reply.elements[3].string);
            return;
        }
        if (kind == "message" && reply.elements.size() == 3) {
            emit messageReceived({}, reply.elements[1].string, reply.elements[2].string);
            return;
        }
    }
    // Also one that began before its command was sent and ended after: it answers nothing.
    if (m_pending.noneWritten() || !m_stream.replyWasAsked()) {
        fail(ErrorKind::Protocol, QStringLiteral("reply without a command"));
        return;
    }
    ++m_repliesRead;
    if (const Pending& head = m_pending.next(); head.batchCallback) {
        // A batch is answered once, with all its replies.
        if (m_batchReplies.isEmpty())
            m_batchReplies.reserve(head.replies);
        m_batchReplies.append(std::move(reply));
        if (m_batchReplies.size() < head.replies)
            return;
    }
    Pending pending = m_pending.takeNext();
    if (m_pending.empty())
        m_deadline.stop();
    if (pending.batchCallback) {
        // Out of the member first: the callback may run a nested event loop that starts the next batch.
        QList<RedisReply> replies = std::exchange(m_batchReplies, {});
        if (pending.isWanted())
            pending.batchCallback(RedisError(), replies);
    } else {
        pending.deliver({RedisError(), std::move(reply)});
    }
    if (!m_pending.noneWritten() && !m_deadline.isActive())
        m_deadline.arm();
}

void RedisConnection::onTransportFailed(ErrorKind kind, const QString& message)
{
    fail(kind, message);
}

void RedisConnection::dropLink()
{
    m_connectTimer.stop();
    m_healthTimer.stop();
    m_deadline.stop();
    m_flushTimer.stop();
    m_transport->abort();
    m_stream.drop();
    m_outBuffer.clear();
}

void RedisConnection::fail(ErrorKind kind, const QString& message)
{
    if (m_state == State::Down || m_state == State::Disconnected)
        return;
    dropLink();
    const RedisError error(kind, m_name, message);
    std::vector<Pending> pending = takeAllPending();
    // The retry is scheduled before anyone hears of the failure, so that retryDelayMs() is right in
    // a stateChanged slot and a slot calling close() or open() cancels it.
    if (m_options.autoReconnect)
        m_backoff.schedule();
    else
        m_backoff.cancel();
    setState(State::Down, error);
    failAll(std::move(pending), error);
}

std::vector<RedisConnection::Pending> RedisConnection::takeAllPending()
{
    m_batchReplies.clear();
    return m_pending.takeAll();
}

void RedisConnection::failAll(std::vector<Pending> pending, const RedisError& error)
{
    const RedisResult result{error, {}};
    for (Pending& p : pending)
        p.deliver(result);
}

void RedisConnection::setState(State state, const RedisError& reason)
{
    if (reason.isError())
        m_lastError = reason;
    else if (state == State::Up)
        m_lastError = {};
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state, reason);
}

} // namespace lockscope
