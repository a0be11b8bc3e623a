// SPDX-License-Identifier: Apache-2.0
#include "trace/mastertrace.h"

#include "base/bytesdisplay.h"
#include "diagnosis/clientlistentry.h"

#include <QDateTime>

#include <limits>

namespace lockscope {

namespace {

constexpr qsizetype maxKnownClients = 10000;
constexpr int scriptSettleMs = 20;

// The lock's key as it stands: its type, PTTL, the master's clock, and its holder (a string's value,
// or a hash's holder field; a read-write lock's "mode" field is not a holder).
const char* const stateScript = R"(local t = redis.call('type', KEYS[1])['ok']
local now = redis.call('time')
local out = {t, redis.call('pttl', KEYS[1]), now[1], now[2]}
if t == 'string' then
  out[5] = redis.call('get', KEYS[1])
elseif t == 'hash' then
  for _, f in ipairs(redis.call('hkeys', KEYS[1])) do
    if f ~= 'mode' then out[5] = f break end
  end
end
return out)";

// A connection of the trace's own, to the node itself (never routed): the monitor's is not retried,
// since a trace is over when its link drops.
ConnectionOptions traceOptions(ConnectionOptions options, bool monitor)
{
    options.clientName = "lockscope-trace";
    options.topology.reset();
    if (monitor) {
        options.autoReconnect = false;
        options.healthIntervalMs = 0; // a monitor's PING would come back inside the stream
    }
    return options;
}

} // namespace

MasterTrace::MasterTrace(int master, const ConnectionOptions& options, QByteArray lockKey,
                         const QByteArrayList& keys, QObject* parent)
    : QObject(parent), m_master(master), m_lockKey(std::move(lockKey)),
      m_monitor(traceOptions(options, true)), m_query(traceOptions(options, false)),
      m_interpreter(m_lockKey, keys),
      m_stream(keys, [this](const MonitorLine& command, const QList<MonitorLine>& calls) {
          onCommand(command, calls);
      })
{
    m_scriptTimer.setSingleShot(true);
    m_scriptTimer.setInterval(scriptSettleMs);
    connect(&m_scriptTimer, &QTimer::timeout, this, [this] { m_stream.finish(); });
    connect(&m_monitor, &RedisConnection::stateChanged, this, &MasterTrace::onStateChanged);
    connect(&m_monitor, &RedisConnection::monitorLine, this, [this](const QByteArray& line) {
        m_stream.feed(line);
        if (m_stream.hasOpenScript())
            m_scriptTimer.start();
    });
}

MasterTrace::~MasterTrace() = default;

void MasterTrace::start()
{
    m_monitor.open();
    m_query.open();
}

void MasterTrace::stop()
{
    if (m_over)
        return;
    m_over = true;
    m_stream.finish();
    handOver(std::numeric_limits<quint64>::max());
    m_monitor.close();
    m_query.close();
}

void MasterTrace::fail(const RedisError& error)
{
    if (m_over)
        return;
    stop();
    emit failed(m_master, error);
}

void MasterTrace::onStateChanged(RedisConnection::State state, const RedisError& reason)
{
    if (state == RedisConnection::State::Up && !m_begun) {
        begin();
        return;
    }
    if (state != RedisConnection::State::Down && state != RedisConnection::State::Disconnected)
        return;
    if (m_over)
        return;
    const QString why = reason.message.isEmpty() ? QStringLiteral("the connection closed") : reason.message;
    fail(RedisError(reason.isError() ? reason.kind : ErrorKind::ConnectionLost, m_monitor.name(),
                    m_begun ? QStringLiteral("the trace on this master is over: %1").arg(why) : why));
}

void MasterTrace::begin()
{
    m_begun = true;
    // One pipeline, flushed in one write: the master runs the read and MONITOR back to back.
    m_monitor.send({"EVAL", stateScript, "1", m_lockKey}, this,
                   [this](const RedisResult& r) { readState(r); });
    m_monitor.startMonitor([this](const RedisResult& r) { onMonitorStarted(r); });
    askClients();
}

void MasterTrace::readState(const RedisResult& result)
{
    const RedisReply& r = result.reply;
    if (!result.ok() || !r.isArray() || r.elements.size() < 4)
        return; // the model starts unknown: the first commands teach it
    const QByteArray type = r.elements.at(0).string;
    bool secondsOk = false;
    bool microsOk = false;
    const qint64 seconds = r.elements.at(2).string.toLongLong(&secondsOk);
    const qint64 micros = r.elements.at(3).string.toLongLong(&microsOk);
    // TIME from a server is data: a clock outside 1970..2286 or a malformed reply leaves the model
    // to learn from the commands.
    if (!secondsOk || !microsOk || seconds < 0 || seconds > 9'999'999'999 || micros < 0 || micros > 999'999)
        return;
    const qint64 nowUs = seconds * 1000000 + micros;
    if (type == "none")
        m_interpreter.model().startAbsent();
    else if ((type == "string" || type == "hash") && r.elements.size() >= 5)
        m_interpreter.model().startHeld(r.elements.at(4).string, r.elements.at(1).integer, nowUs);
}

void MasterTrace::onMonitorStarted(const RedisResult& result)
{
    if (!result.ok()) {
        fail(result.error);
        return;
    }
    if (result.reply.isError()) {
        const QByteArray code = result.reply.errorCode();
        const QString said = escapeBytes(result.reply.string.left(300));
        QString message;
        if (code == "NOPERM")
            message =
                QStringLiteral("MONITOR refused (%1): the ACL user needs the +monitor permission to trace")
                    .arg(said);
        else if (result.reply.string.contains("unknown command"))
            message =
                QStringLiteral("MONITOR is not available on this master (renamed or disabled): %1").arg(said);
        else
            message = QStringLiteral("MONITOR refused: %1").arg(said);
        fail(RedisError(code == "NOPERM" ? ErrorKind::NoPermission : ErrorKind::ServerError, m_monitor.name(),
                        message));
        return;
    }
    emit monitoring(m_master);
}

bool MasterTrace::isNamed(const QByteArray& address) const
{
    return address == "lua" || m_listed.contains(address) || m_unlisted.contains(address) ||
           m_stream.namedClients().contains(address);
}

TraceClient MasterTrace::clientOf(const QByteArray& address) const
{
    TraceClient out = m_listed.value(address);
    out.address = address;
    const TraceClient told = m_stream.namedClients().value(address);
    if (out.name.isEmpty())
        out.name = told.name;
    if (out.libraryName.isEmpty()) {
        out.libraryName = told.libraryName;
        out.libraryVersion = told.libraryVersion;
    }
    return out;
}

void MasterTrace::onCommand(const MonitorLine& command, const QList<MonitorLine>& calls)
{
    TracedCommand seen = m_interpreter.interpret(command, calls);
    seen.master = m_master;
    seen.seenMs = QDateTime::currentMSecsSinceEpoch();
    // A take after a lease ran out: a list asked from now on tells whether that holder's connection
    // was still open when the lock changed hands.
    const bool askAfter = seen.lapsed == TracedCommand::Lapsed::Unasked;
    if (m_waiting.empty() && isNamed(command.client) && !askAfter) {
        seen.client = clientOf(command.client);
        emit traced(seen);
        return;
    }
    quint64 round = m_waiting.empty() ? m_roundsSent : m_waiting.back().round;
    if (!isNamed(command.client) || askAfter) {
        // The list asked for now may not have it, if it came after the ask was sent.
        round = m_roundsSent + 1;
        if (m_askInFlight)
            m_askAgain = true;
        else
            askClients();
    }
    m_waiting.push_back({std::move(seen), round});
}

void MasterTrace::askClients()
{
    if (m_over)
        return;
    if (m_askInFlight) {
        m_askAgain = true;
        return;
    }
    m_askInFlight = true;
    m_askAgain = false;
    const quint64 round = ++m_roundsSent;
    m_query.send({"CLIENT", "LIST"}, this, [this, round](const RedisResult& r) {
        m_askInFlight = false;
        QHash<QByteArray, qint64> idleOf; // who is connected now, and idle how long
        const bool listed = r.ok() && (r.reply.isString() || r.reply.isStatus());
        if (listed) {
            if (m_listed.size() > maxKnownClients)
                m_listed.clear();
            for (const ClientListEntry& e : ClientListEntry::parse(r.reply.string)) {
                m_listed.insert(e.address, TraceClient{e.address, e.name, e.libraryName, e.libraryVersion});
                idleOf.insert(e.address, e.idleS);
            }
        }
        for (Waiting& w : m_waiting) {
            TracedCommand& c = w.command;
            if (!listed || w.round > round || c.lapsed != TracedCommand::Lapsed::Unasked)
                continue;
            const auto it = idleOf.constFind(c.lapsedClient);
            c.lapsed = it == idleOf.cend() ? TracedCommand::Lapsed::Closed : TracedCommand::Lapsed::Open;
            c.lapsedIdleS = it == idleOf.cend() ? -1 : *it;
            const QString told = it == idleOf.cend() ? QStringLiteral("had closed")
                                                     : QStringLiteral("was still open (idle %1 s)").arg(*it);
            c.detail += (c.detail.isEmpty() ? QString() : QStringLiteral("; ")) +
                        QStringLiteral("the lease of %1 had run out unreleased; its connection %2 %3")
                            .arg(escapeBytes(c.lapsedToken), escapeBytes(c.lapsedClient), told);
        }
        // Whoever the list did not have is gone, or cannot be asked about: named by address only.
        if (m_unlisted.size() > maxKnownClients)
            m_unlisted.clear();
        for (const Waiting& w : m_waiting)
            if (w.round <= round && !m_listed.contains(w.command.client.address))
                m_unlisted.insert(w.command.client.address);
        handOver(round);
        if (m_askAgain)
            askClients();
    });
}

void MasterTrace::handOver(quint64 upToRound)
{
    while (!m_waiting.empty() && m_waiting.front().round <= upToRound) {
        TracedCommand command = std::move(m_waiting.front().command);
        m_waiting.pop_front();
        command.client = clientOf(command.client.address);
        emit traced(command);
    }
}

} // namespace lockscope
