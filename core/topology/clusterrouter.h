// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/keyrouter.h"
#include "connection/nodeaddress.h"
#include "connection/redisconnection.h"
#include "connection/redisscript.h"
#include "topology/clusterredirect.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <deque>
#include <optional>

namespace lockscope {

class ClusterTopology;

// Sends each command to the primary that serves its key's slot, on one pipelined connection per
// primary, and follows the cluster's redirections: MOVED updates the slot map (and triggers a
// refresh) and resends, ASK sends ASKING plus the command to the named node, once. Commands sent
// before the first slot map is known wait for it. A lost node prompts a topology refresh.
// A redirection names an address that the credentials would be sent to: one that is not a node of
// the slot map (or a seed) is followed only if a fresh map, read from a known node, lists it;
// otherwise the command fails, and nothing is sent to that address.
class ClusterRouter final : public QObject, public KeyRouter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterRouter)

public:
    using Callback = RedisConnection::Callback;

    // At most this many MOVED hops per command: a cluster in flux answers with an error instead.
    static constexpr int maxRedirections = 5;

    explicit ClusterRouter(ClusterTopology* topology, QObject* parent = nullptr);
    ~ClusterRouter() override;

    // `key` decides the slot; the callback is skipped if `context` is gone by then.
    void send(const QByteArray& key, const QByteArrayList& argv, QObject* context,
              Callback callback) override;
    void sendToSlot(int slot, const QByteArrayList& argv, QObject* context, Callback callback);
    // A script whose keys must all share a slot (hash tags); routed by the first key.
    void evalScript(const RedisScript& script, const QByteArrayList& keys, const QByteArrayList& args,
                    QObject* context, Callback callback) override;

    // The router's connection to `node`, made on first use. Phase 2's per-primary scanners can share it.
    RedisConnection* connectionTo(const NodeAddress& node);
    ClusterTopology* topology() const { return m_topology; }
    int movedCount() const { return m_moved; }
    int askCount() const { return m_asked; }

signals:
    void redirected(const lockscope::ClusterRedirect& redirect);

private:
    struct Request
    {
        int slot = -1;
        QByteArrayList argv; // the command; for a script, its keys
        QByteArrayList args; // a script's arguments
        std::optional<RedisScript> script;
        QPointer<QObject> context;
        bool hasContext = false;
        Callback callback;
        int hops = 0;
        bool asked = false;

        Request() = default;
        Request(int slot, const QByteArrayList& argv, QObject* context, Callback callback)
            : slot(slot), argv(argv), context(context), hasContext(context != nullptr),
              callback(std::move(callback))
        {}
    };

    // A redirection to an address the slot map does not know, waiting for a fresh map.
    struct Unverified
    {
        Request request;
        ClusterRedirect redirect;
    };

    void dispatch(Request request);
    void follow(Request request, const ClusterRedirect& redirect);
    void checkUnverified(const RedisError* refreshError);
    void sendTo(const NodeAddress& node, Request request, bool asking);
    void onReply(const NodeAddress& node, Request request, const RedisResult& result);
    void complete(Request& request, const RedisResult& result);
    void flushWaiting();
    void failWaiting(const RedisError& error);
    void pruneConnections(const QList<NodeAddress>& removed);

    ClusterTopology* m_topology;
    QHash<NodeAddress, RedisConnection*> m_connections;
    std::deque<Request> m_waiting; // for the first slot map
    std::deque<Unverified> m_unverified;
    int m_moved = 0;
    int m_asked = 0;
};

} // namespace lockscope
