// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisreply.h"
#include "connection/replykeyfilter.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <limits>

namespace lockscope {

// One command (or one batch of commands) a RedisConnection has written or queued and not yet
// answered: whom to tell, and by when the answer must be in.
struct PendingRequest
{
    using Callback = std::function<void(const RedisResult&)>;
    // A batch's answer: `replies` holds one reply per command, in order, unless `error` is set.
    using BatchCallback = std::function<void(const RedisError& error, QList<RedisReply>& replies)>;

    Callback callback;
    BatchCallback batchCallback; // set instead of `callback` for a batch ...
    int replies = 1;             // ... of this many commands
    QPointer<QObject> context;
    // A SCAN page's: which of its keys the reply keeps (the sender keeps it alive); null: all.
    const ReplyKeyFilter* keyFilter = nullptr;
    bool hasContext = false;
    // Monotonic ms. Commands written while up get theirs when their bytes reach the transport
    // (one clock read per flush, not per command); until then it is notSent.
    qint64 deadline = notSent;
    static constexpr qint64 notSent = std::numeric_limits<qint64>::max();

    static PendingRequest make(Callback callback, QObject* context)
    {
        PendingRequest p;
        p.callback = std::move(callback);
        if (context) { // assigning even a null QPointer costs a call, on every command
            p.context = context;
            p.hasContext = true;
        }
        return p;
    }

    // Whether the callback is to run: a request with a context is dropped once that context is gone.
    bool isWanted() const { return !(hasContext && !context); }

    // Single commands get `result`; a batch only ever gets a failure this way (its replies come
    // together, through batchCallback directly).
    void deliver(const RedisResult& result)
    {
        if (!isWanted())
            return;
        if (batchCallback) {
            QList<RedisReply> none;
            batchCallback(result.error, none);
            return;
        }
        if (callback)
            callback(result);
    }
};

} // namespace lockscope
