#include "clusterrouter.h"

#include "clusterkeyslot.h"
#include "clustertopology.h"

namespace lockscope {

namespace {

// Failures after which the slot map may be out of date: the node died or was cut off.
bool suggestsFailover(const RedisResult& result)
{
    if (!result.ok())
        switch (result.error.kind) {
        case ErrorKind::ConnectionLost:
        case ErrorKind::Timeout:
        case ErrorKind::Refused:
        case ErrorKind::NotConnected:
            return true;
        default:
            return false;
        }
    return result.reply.isError() && result.reply.errorCode() == "CLUSTERDOWN";
}

} // namespace

ClusterRouter::ClusterRouter(ClusterTopology* topology, QObject* parent)
    : QObject(parent), m_topology(topology)
{
    connect(m_topology, &ClusterTopology::refreshed, this, &ClusterRouter::flushWaiting);
    connect(m_topology, &ClusterTopology::refreshFailed, this, [this](const RedisError& error) {
        if (!m_topology->isReady())
            failWaiting(error);
    });
    connect(
        m_topology, &ClusterTopology::primariesChanged, this,
        [this](const QList<NodeAddress>&, const QList<NodeAddress>& removed) { pruneConnections(removed); });
}

ClusterRouter::~ClusterRouter()
{
    for (RedisConnection* connection : std::as_const(m_connections))
        connection->disconnect(this);
}

RedisConnection* ClusterRouter::connectionTo(const NodeAddress& node)
{
    RedisConnection*& connection = m_connections[node];
    if (!connection) {
        connection = new RedisConnection(m_topology->optionsFor(node), this);
        connection->open();
    }
    return connection;
}

void ClusterRouter::send(const QByteArray& key, const QByteArrayList& argv, QObject* context,
                         Callback callback)
{
    sendToSlot(ClusterKeySlot::of(key), argv, context, std::move(callback));
}

void ClusterRouter::sendToSlot(int slot, const QByteArrayList& argv, QObject* context, Callback callback)
{
    Request request;
    request.slot = slot;
    request.argv = argv;
    request.context = context;
    request.hasContext = context != nullptr;
    request.callback = std::move(callback);
    dispatch(std::move(request));
}

void ClusterRouter::evalScript(const RedisScript& script, const QByteArrayList& keys,
                               const QByteArrayList& args, QObject* context, Callback callback)
{
    Request request;
    request.slot = keys.isEmpty() ? 0 : ClusterKeySlot::of(keys.front());
    request.argv = keys;
    request.args = args;
    request.script = script;
    request.context = context;
    request.hasContext = context != nullptr;
    request.callback = std::move(callback);
    dispatch(std::move(request));
}

void ClusterRouter::dispatch(Request request)
{
    if (!m_topology->isReady()) {
        m_waiting.push_back(std::move(request));
        m_topology->refresh();
        return;
    }
    const NodeAddress node = m_topology->slotMap().primaryFor(request.slot);
    if (!node.isValid()) {
        m_topology->refresh();
        complete(request, {RedisError(ErrorKind::ServerError, m_topology->url().toString(),
                                      tr("no primary serves slot %1").arg(request.slot)),
                           {}});
        return;
    }
    sendTo(node, std::move(request), false);
}

void ClusterRouter::sendTo(const NodeAddress& node, Request request, bool asking)
{
    RedisConnection* connection = connectionTo(node);
    // ASKING is pipelined right before the command on the same connection, so nothing can come
    // between them: it only ever applies to the next command.
    if (asking)
        connection->send(QByteArrayList{"ASKING"}, RedisConnection::Callback{});
    auto onResult = [this, node, request](const RedisResult& result) { onReply(node, request, result); };
    if (!request.script) {
        connection->send(request.argv, this, std::move(onResult));
    } else if (asking) {
        // EVALSHA's NOSCRIPT fallback would go out without ASKING: send the source straight away.
        QByteArrayList eval{"EVAL", request.script->source(), QByteArray::number(request.argv.size())};
        eval << request.argv << request.args;
        connection->send(eval, this, std::move(onResult));
    } else {
        QPointer<ClusterRouter> self(this);
        connection->evalScript(*request.script, request.argv, request.args,
                               [self, onResult](const RedisResult& result) {
                                   if (self)
                                       onResult(result);
                               });
    }
}

void ClusterRouter::onReply(const NodeAddress& node, Request request, const RedisResult& result)
{
    const std::optional<ClusterRedirect> redirect =
        result.ok() ? ClusterRedirect::fromReply(result.reply, node.host) : std::nullopt;
    if (!redirect) {
        if (suggestsFailover(result))
            m_topology->refresh();
        complete(request, result);
        return;
    }
    emit redirected(*redirect);
    if (request.hops >= maxRedirections) {
        complete(request, result);
        return;
    }
    ++request.hops;
    if (redirect->kind == ClusterRedirect::Kind::Moved) {
        ++m_moved;
        m_topology->applyMoved(redirect->slot, redirect->target);
        sendTo(redirect->target, std::move(request), false);
        return;
    }
    // A second ASK for the same command means the migration moved on: report it rather than loop.
    if (std::exchange(request.asked, true)) {
        complete(request, result);
        return;
    }
    ++m_asked;
    sendTo(redirect->target, std::move(request), true);
}

void ClusterRouter::complete(Request& request, const RedisResult& result)
{
    if (request.hasContext && !request.context)
        return;
    if (request.callback)
        request.callback(result);
}

void ClusterRouter::flushWaiting()
{
    if (!m_topology->isReady())
        return;
    std::deque<Request> waiting = std::exchange(m_waiting, {});
    for (Request& request : waiting)
        dispatch(std::move(request));
}

void ClusterRouter::failWaiting(const RedisError& error)
{
    std::deque<Request> waiting = std::exchange(m_waiting, {});
    for (Request& request : waiting)
        complete(request, {error, {}});
}

void ClusterRouter::pruneConnections(const QList<NodeAddress>& removed)
{
    for (const NodeAddress& node : removed) {
        const auto it = m_connections.find(node);
        if (it == m_connections.end() || it.value()->pendingCount() > 0)
            continue; // still answering for commands in flight; pruned after the next change
        it.value()->disconnect(this);
        it.value()->close();
        it.value()->deleteLater();
        m_connections.erase(it);
    }
}

} // namespace lockscope
