// SPDX-License-Identifier: Apache-2.0
#include "topology/clusterrouter.h"

#include "base/bytesdisplay.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"

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
    connect(m_topology, &ClusterTopology::refreshed, this, [this] {
        flushWaiting();
        checkUnverified(nullptr);
    });
    connect(m_topology, &ClusterTopology::refreshFailed, this, [this](const RedisError& error) {
        if (!m_topology->isReady())
            failWaiting(error);
        checkUnverified(&error);
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
    dispatch(Request(slot, argv, context, std::move(callback)));
}

void ClusterRouter::evalScript(const RedisScript& script, const QByteArrayList& keys,
                               const QByteArrayList& args, QObject* context, Callback callback)
{
    Request request(keys.isEmpty() ? 0 : ClusterKeySlot::of(keys.front()), keys, context,
                    std::move(callback));
    request.args = args;
    request.script = script;
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
    // A second ASK for the same command means the migration moved on: report it rather than loop.
    if (redirect->kind == ClusterRedirect::Kind::Ask && request.asked) {
        complete(request, result);
        return;
    }
    ++request.hops;
    if (!m_topology->knowsNode(redirect->target)) {
        // Possibly a node that joined since the last map, possibly a forged or misconfigured answer:
        // connecting would send it the credentials, so a fresh map decides.
        m_unverified.push_back({std::move(request), *redirect});
        m_topology->refresh();
        if (!m_topology->isRefreshing()) // stopped: no map is coming
            checkUnverified(nullptr);
        return;
    }
    follow(std::move(request), *redirect);
}

void ClusterRouter::follow(Request request, const ClusterRedirect& redirect)
{
    if (redirect.kind == ClusterRedirect::Kind::Moved) {
        ++m_moved;
        m_topology->applyMoved(redirect.slot, redirect.target);
        sendTo(redirect.target, std::move(request), false);
        return;
    }
    request.asked = true;
    ++m_asked;
    sendTo(redirect.target, std::move(request), true);
}

void ClusterRouter::checkUnverified(const RedisError* refreshError)
{
    // A round that began before the redirection may have read the map before the node joined:
    // wait for the one after it.
    if (!refreshError && m_topology->isRefreshing())
        return;
    std::deque<Unverified> parked = std::exchange(m_unverified, {});
    for (Unverified& u : parked) {
        if (!refreshError && m_topology->knowsNode(u.redirect.target)) {
            follow(std::move(u.request), u.redirect);
            continue;
        }
        const QString kind =
            u.redirect.kind == ClusterRedirect::Kind::Moved ? QStringLiteral("MOVED") : QStringLiteral("ASK");
        const QString why = refreshError
                                ? tr("the slot map could not be refreshed to check it")
                                : tr("it is not a node of the cluster's slot map, even after a refresh");
        complete(u.request, {RedisError(ErrorKind::ServerError, m_topology->url().toString(),
                                        tr("refused to follow %1 for slot %2 to %3: %4; the credentials "
                                           "are only sent to the cluster's own nodes")
                                            .arg(kind)
                                            .arg(u.redirect.slot)
                                            .arg(escapeBytes(u.redirect.target.toString().toUtf8()), why)),
                             {}});
    }
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
