#include "redisconnection.h"

#include "monotonicclock.h"
#include "sockettransport.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <hiredis/hiredis.h>
#include <hiredis/read.h>

namespace lockscope {

namespace {

RedisReply convert(const redisReply* r)
{
    RedisReply out;
    switch (r->type) {
    case REDIS_REPLY_STRING:
        out.type = RedisReply::Type::String;
        out.string = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_STATUS:
        out.type = RedisReply::Type::Status;
        out.string = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_ERROR:
        out.type = RedisReply::Type::Error;
        out.string = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_INTEGER:
        out.type = RedisReply::Type::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_ARRAY:
        out.type = RedisReply::Type::Array;
        out.elements.reserve(qsizetype(r->elements));
        for (size_t i = 0; i < r->elements; ++i)
            out.elements.append(convert(r->element[i]));
        break;
    default: out.type = RedisReply::Type::Nil; break;
    }
    return out;
}

QByteArray format(const QByteArrayList& argv)
{
    std::vector<const char*> args;
    std::vector<size_t> lengths;
    args.reserve(size_t(argv.size()));
    lengths.reserve(size_t(argv.size()));
    for (const QByteArray& a : argv) {
        args.push_back(a.constData());
        lengths.push_back(size_t(a.size()));
    }
    char* buffer = nullptr;
    const int len = redisFormatCommandArgv(&buffer, int(argv.size()), args.data(), lengths.data());
    if (len < 0)
        return {};
    QByteArray out(buffer, len);
    free(buffer);
    return out;
}

// "key:value" lines of an INFO section.
QByteArray infoField(const QByteArray& info, const QByteArray& name)
{
    const QByteArray needle = name + ':';
    qsizetype start = -1;
    if (info.startsWith(needle))
        start = needle.size();
    else if (const qsizetype at = info.indexOf(QByteArray('\n' + needle)); at >= 0)
        start = at + 1 + needle.size();
    if (start < 0)
        return {};
    qsizetype end = info.indexOf('\n', start);
    if (end < 0)
        end = info.size();
    return info.mid(start, end - start).trimmed();
}

bool isAuthError(const RedisReply& reply)
{
    const QByteArray code = reply.errorCode();
    return code == "NOAUTH" || code == "WRONGPASS" ||
           (code == "ERR" && reply.string.contains("invalid password"));
}

} // namespace

void RedisConnection::ReaderDeleter::operator()(redisReader* reader) const
{
    redisReaderFree(reader);
}

RedisConnection::RedisConnection(ConnectionOptions options, QObject* parent)
    : RedisConnection(options, std::make_unique<SocketTransport>(options), parent)
{
}

RedisConnection::RedisConnection(ConnectionOptions options, std::unique_ptr<RedisTransport> transport,
                                 QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_name(m_options.url.toString()),
      m_transport(std::move(transport))
{
    m_transport->setParent(nullptr);
    connect(m_transport.get(), &RedisTransport::opened, this, &RedisConnection::onOpened);
    connect(m_transport.get(), &RedisTransport::readyRead, this, &RedisConnection::onReadyRead);
    connect(m_transport.get(), &RedisTransport::failed, this, &RedisConnection::onTransportFailed);

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(0);
    connect(&m_flushTimer, &QTimer::timeout, this, [this] {
        if (!m_outBuffer.isEmpty()) {
            m_transport->write(m_outBuffer);
            m_outBuffer.clear();
            m_transport->flush();
        }
    });
    m_timeoutTimer.setSingleShot(true);
    m_timeoutTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_timeoutTimer, &QTimer::timeout, this, &RedisConnection::onTimeout);
    m_connectTimer.setSingleShot(true);
    m_connectTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        fail(ErrorKind::Timeout,
             QStringLiteral("no connection within %1 ms").arg(m_options.connectTimeoutMs));
    });
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RedisConnection::startAttempt);
    connect(&m_healthTimer, &QTimer::timeout, this, &RedisConnection::sendPing);
}

RedisConnection::~RedisConnection()
{
    // Callbacks are not run here: their owners may already be half destroyed.
    m_transport->disconnect(this);
    m_transport->abort();
}

QString RedisConnection::stateName(State state)
{
    switch (state) {
    case State::Disconnected: return QStringLiteral("disconnected");
    case State::Connecting: return QStringLiteral("connecting");
    case State::Up: return QStringLiteral("up");
    case State::Down: return QStringLiteral("down");
    case State::Reconnecting: return QStringLiteral("reconnecting");
    }
    return {};
}

void RedisConnection::open()
{
    if (m_state == State::Connecting || m_state == State::Reconnecting || m_state == State::Up)
        return;
    m_attempt = 0;
    startAttempt();
}

void RedisConnection::close()
{
    m_reconnectTimer.stop();
    m_connectTimer.stop();
    m_healthTimer.stop();
    m_timeoutTimer.stop();
    m_transport->abort();
    const RedisError cancelled(ErrorKind::Cancelled, m_name, QStringLiteral("connection closed"));
    setState(State::Disconnected, cancelled);
    std::deque<Pending> pending;
    pending.swap(m_sent);
    for (Queued& q : m_queued)
        pending.push_back(std::move(q.pending));
    m_queued.clear();
    m_outBuffer.clear();
    failAll(std::move(pending), cancelled);
}

void RedisConnection::startAttempt()
{
    const bool retry = m_state == State::Down;
    m_reader.reset(redisReaderCreate());
    m_outBuffer.clear();
    m_inSubscribeMode = false;
    m_pingInFlight = false;
    m_handshakeLeft = 0;
    setState(retry ? State::Reconnecting : State::Connecting);
    m_connectTimer.start(m_options.connectTimeoutMs);
    m_transport->open();
}

void RedisConnection::onOpened()
{
    sendHandshake();
}

void RedisConnection::sendHandshake()
{
    // The handshake is pipelined; queued user commands wait for all of it, so that a failed AUTH
    // or SELECT can never let them run against the wrong database.
    auto step = [this](const QByteArrayList& argv, std::function<bool(const RedisReply&)> onReply) {
        ++m_handshakeLeft;
        writeNow(format(argv), makePending(
                                   [this, onReply](const RedisResult& result) {
                                       if (!result.ok() || m_state == State::Up)
                                           return;
                                       if (result.reply.isError() && isAuthError(result.reply)) {
                                           fail(ErrorKind::AuthFailed,
                                                QStringLiteral("authentication failed: ") +
                                                    QString::fromUtf8(result.reply.string));
                                           return;
                                       }
                                       if (!onReply(result.reply))
                                           return;
                                       if (--m_handshakeLeft == 0)
                                           finishHandshake();
                                   },
                                   nullptr));
    };

    const RedisUrl& url = m_options.url;
    if (!url.password().isEmpty()) {
        QByteArrayList auth{"AUTH"};
        if (!url.user().isEmpty())
            auth << url.user().toUtf8();
        auth << url.password().toUtf8();
        step(auth, [](const RedisReply&) { return true; });
    }
    if (url.db() != 0) {
        step({"SELECT", QByteArray::number(url.db())}, [this](const RedisReply& reply) {
            if (reply.isError()) {
                fail(ErrorKind::ServerError, QStringLiteral("SELECT %1 failed: %2")
                                                 .arg(m_options.url.db())
                                                 .arg(QString::fromUtf8(reply.string)));
                return false;
            }
            return true;
        });
    }
    if (!m_options.clientName.isEmpty())
        step({"CLIENT", "SETNAME", m_options.clientName}, [](const RedisReply&) { return true; });
    step({"INFO", "server"}, [this](const RedisReply& reply) {
        if (reply.isString()) {
            m_health.version = QString::fromUtf8(infoField(reply.string, "redis_version"));
            m_health.runId = infoField(reply.string, "run_id");
        }
        return true;
    });
    step({"INFO", "replication"}, [this](const RedisReply& reply) {
        if (reply.isString())
            m_health.role = QString::fromUtf8(infoField(reply.string, "role"));
        return true;
    });
    const qint64 sentWallMs = QDateTime::currentMSecsSinceEpoch();
    const qint64 sentNs = monotonicNs();
    step({"TIME"}, [this, sentWallMs, sentNs](const RedisReply& reply) {
        if (reply.isArray() && reply.elements.size() == 2) {
            const double rttMs = double(monotonicNs() - sentNs) / 1e6;
            const qint64 serverMs =
                reply.elements[0].string.toLongLong() * 1000 + reply.elements[1].string.toLongLong() / 1000;
            m_health.clockOffsetMs = serverMs - (sentWallMs + qint64(rttMs / 2));
            m_health.clockOffsetKnown = true;
            m_health.latencyMs = rttMs;
        }
        return true;
    });
}

void RedisConnection::finishHandshake()
{
    m_connectTimer.stop();
    m_attempt = 0;
    const QByteArray previous = m_knownRunId;
    m_knownRunId = m_health.runId;
    setState(State::Up);
    emit healthChanged();
    if (!previous.isEmpty() && !m_health.runId.isEmpty() && previous != m_health.runId)
        emit restarted(previous, m_health.runId);

    if (!m_patterns.isEmpty()) {
        const QByteArrayList patterns(m_patterns.cbegin(), m_patterns.cend());
        m_inSubscribeMode = true;
        QByteArrayList argv{"PSUBSCRIBE"};
        argv << patterns;
        const QByteArray bytes = format(argv);
        for (qsizetype i = 0; i < patterns.size(); ++i)
            writeNow(i == 0 ? bytes : QByteArray(), makePending({}, nullptr));
    }
    // Deadlines of queued commands were set when they were queued: waiting counts against them.
    std::deque<Queued> queued;
    queued.swap(m_queued);
    for (Queued& q : queued) {
        m_outBuffer += q.bytes;
        m_sent.push_back(std::move(q.pending));
    }
    scheduleFlush();
    armTimeout();
    if (m_options.healthIntervalMs > 0)
        m_healthTimer.start(m_options.healthIntervalMs);
}

RedisConnection::Pending RedisConnection::makePending(Callback callback, QObject* context) const
{
    Pending p;
    p.callback = std::move(callback);
    p.context = context;
    p.hasContext = context != nullptr;
    p.deadline = monotonicMs() + m_options.commandTimeoutMs;
    return p;
}

void RedisConnection::send(const QByteArrayList& argv, Callback callback)
{
    send(argv, nullptr, std::move(callback));
}

void RedisConnection::send(const QByteArrayList& argv, QObject* context, Callback callback)
{
    Pending pending = makePending(std::move(callback), context);
    if (argv.isEmpty()) {
        deliver(pending, {RedisError(ErrorKind::InvalidArgument, m_name, QStringLiteral("empty command")), {}});
        return;
    }
    switch (m_state) {
    case State::Up: writeNow(format(argv), std::move(pending)); return;
    case State::Connecting:
    case State::Reconnecting:
        m_queued.push_back({format(argv), std::move(pending)});
        armTimeout();
        return;
    case State::Down:
    case State::Disconnected: {
        const QString why = m_state == State::Down && m_lastError.isError()
                                ? QStringLiteral("master is down (%1)").arg(m_lastError.message)
                                : QStringLiteral("not connected");
        deliver(pending, {RedisError(ErrorKind::NotConnected, m_name, why), {}});
        return;
    }
    }
}

void RedisConnection::evalScript(const RedisScript& script, const QByteArrayList& keys, const QByteArrayList& args,
                                 Callback callback)
{
    QByteArrayList tail{QByteArray::number(keys.size())};
    tail << keys << args;
    QByteArrayList evalsha{"EVALSHA", script.sha1()};
    evalsha << tail;
    send(evalsha, [this, source = script.source(), tail, callback = std::move(callback)](const RedisResult& result) {
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
    QByteArrayList argv{"PSUBSCRIBE"};
    argv << fresh;
    const QByteArray bytes = format(argv);
    for (qsizetype i = 0; i < fresh.size(); ++i)
        writeNow(i == 0 ? bytes : QByteArray(), makePending({}, nullptr));
}

void RedisConnection::punsubscribe(const QByteArrayList& patterns)
{
    QByteArrayList gone;
    for (const QByteArray& p : patterns)
        if (m_patterns.remove(p))
            gone << p;
    if (gone.isEmpty() || m_state != State::Up)
        return;
    QByteArrayList argv{"PUNSUBSCRIBE"};
    argv << gone;
    const QByteArray bytes = format(argv);
    for (qsizetype i = 0; i < gone.size(); ++i)
        writeNow(i == 0 ? bytes : QByteArray(), makePending({}, nullptr));
}

void RedisConnection::writeNow(const QByteArray& bytes, Pending pending)
{
    const bool wasIdle = m_sent.empty();
    m_outBuffer += bytes;
    m_sent.push_back(std::move(pending));
    scheduleFlush();
    if (wasIdle)
        armTimeout();
}

void RedisConnection::scheduleFlush()
{
    if (!m_outBuffer.isEmpty() && !m_flushTimer.isActive())
        m_flushTimer.start();
}

void RedisConnection::armTimeout()
{
    qint64 deadline = 0;
    if (!m_sent.empty())
        deadline = m_sent.front().deadline;
    else if (!m_queued.empty())
        deadline = m_queued.front().pending.deadline;
    else {
        m_timeoutTimer.stop();
        return;
    }
    if (m_timeoutTimer.isActive())
        return; // it re-arms itself from the head when it fires
    m_timeoutTimer.start(int(qMax<qint64>(0, deadline - monotonicMs())));
}

void RedisConnection::onTimeout()
{
    const qint64 now = monotonicMs();
    const bool sentExpired = !m_sent.empty() && m_sent.front().deadline <= now;
    const bool queuedExpired = m_sent.empty() && !m_queued.empty() && m_queued.front().pending.deadline <= now;
    if (sentExpired || queuedExpired) {
        fail(ErrorKind::Timeout, QStringLiteral("no reply within %1 ms").arg(m_options.commandTimeoutMs));
        return;
    }
    armTimeout();
}

void RedisConnection::sendPing()
{
    if (m_state != State::Up || m_pingInFlight)
        return;
    m_pingInFlight = true;
    const qint64 sentNs = monotonicNs();
    writeNow(format({"PING"}), makePending(
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
    const QByteArray bytes = m_transport->readAll();
    if (bytes.isEmpty() || !m_reader)
        return;
    if (redisReaderFeed(m_reader.get(), bytes.constData(), size_t(bytes.size())) != REDIS_OK) {
        fail(ErrorKind::Protocol, QStringLiteral("could not buffer the reply"));
        return;
    }
    // A callback may close or fail this connection; the reader pointer tells us it was reset.
    redisReader* reader = m_reader.get();
    while (m_reader.get() == reader) {
        void* raw = nullptr;
        if (redisReaderGetReply(reader, &raw) != REDIS_OK) {
            fail(ErrorKind::Protocol, QStringLiteral("malformed reply: %1").arg(QString::fromUtf8(reader->errstr)));
            return;
        }
        if (!raw)
            break;
        auto* r = static_cast<redisReply*>(raw);
        const RedisReply reply = convert(r);
        freeReplyObject(r);
        dispatch(reply);
    }
}

void RedisConnection::dispatch(const RedisReply& reply)
{
    if (m_inSubscribeMode && reply.isArray() && !reply.elements.isEmpty()) {
        const QByteArray& kind = reply.elements.front().string;
        if (kind == "pmessage" && reply.elements.size() == 4) {
            emit messageReceived(reply.elements[1].string, reply.elements[2].string, reply.elements[3].string);
            return;
        }
        if (kind == "message" && reply.elements.size() == 3) {
            emit messageReceived({}, reply.elements[1].string, reply.elements[2].string);
            return;
        }
    }
    if (m_sent.empty()) {
        fail(ErrorKind::Protocol, QStringLiteral("reply without a command"));
        return;
    }
    Pending pending = std::move(m_sent.front());
    m_sent.pop_front();
    if (m_sent.empty())
        m_timeoutTimer.stop();
    deliver(pending, {RedisError(), reply});
    if (!m_sent.empty() && !m_timeoutTimer.isActive())
        armTimeout();
}

void RedisConnection::deliver(Pending& pending, const RedisResult& result)
{
    if (!pending.callback)
        return;
    if (pending.hasContext && !pending.context)
        return;
    pending.callback(result);
}

void RedisConnection::onTransportFailed(ErrorKind kind, const QString& message)
{
    fail(kind, message);
}

void RedisConnection::fail(ErrorKind kind, const QString& message)
{
    if (m_state == State::Down || m_state == State::Disconnected)
        return;
    m_connectTimer.stop();
    m_healthTimer.stop();
    m_timeoutTimer.stop();
    m_transport->abort();
    m_reader.reset();
    m_outBuffer.clear();
    const RedisError error(kind, m_name, message);
    std::deque<Pending> pending;
    pending.swap(m_sent);
    for (Queued& q : m_queued)
        pending.push_back(std::move(q.pending));
    m_queued.clear();
    setState(State::Down, error);
    if (m_options.autoReconnect) {
        const int base = qMin(m_options.reconnectMaxMs,
                              m_options.reconnectInitialMs * (1 << qMin(m_attempt, 16)));
        const double jitter = 0.75 + 0.5 * QRandomGenerator::global()->generateDouble();
        m_reconnectTimer.start(qMax(1, int(base * jitter)));
        ++m_attempt;
    }
    failAll(std::move(pending), error);
}

void RedisConnection::failAll(std::deque<Pending> pending, const RedisError& error)
{
    for (Pending& p : pending)
        deliver(p, {error, {}});
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
