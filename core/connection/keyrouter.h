// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisreply.h"
#include "connection/redisscript.h"

#include <QByteArrayList>

#include <functional>

class QObject;

namespace lockscope {

// Sends a command to whichever node serves its key. A cluster entry's RedisConnection routes through
// one (RedisConnection::routeThrough), so that Redlock, force-release and key reads address a
// cluster exactly as they address a single master.
class KeyRouter
{
public:
    using Callback = std::function<void(const RedisResult&)>;

    virtual ~KeyRouter() = default;

    // The commands a cluster entry routes by their first argument: what lock tools send to one key.
    // Anything else (PING, CONFIG, SCAN, INFO...) addresses a node, and a cluster entry is not one.
    static bool takesKeyFirst(const QByteArray& command);

    // The callback is skipped if `context` is gone by then.
    virtual void send(const QByteArray& key, const QByteArrayList& argv, QObject* context,
                      Callback callback) = 0;
    // A script whose keys share one slot (hash tags), routed by the first key.
    virtual void evalScript(const RedisScript& script, const QByteArrayList& keys, const QByteArrayList& args,
                            QObject* context, Callback callback) = 0;
};

} // namespace lockscope
