// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/tracemeaning.h"

#include <QByteArray>
#include <QByteArrayList>
#include <QList>
#include <QMetaType>
#include <QString>

namespace lockscope {

// The connection a command came from, as the master knows it.
struct TraceClient
{
    QByteArray address;     // "127.0.0.1:54321"; "lua" for a script's own call
    QByteArray name;        // CLIENT SETNAME, where set
    QByteArray libraryName; // lib-name and lib-ver (CLIENT SETINFO, Redis 7.2+ and Valkey), where set
    QByteArray libraryVersion;

    // "127.0.0.1:54321 (worker-3, redis-py 5.0)": for people; bytes escaped.
    QString display() const;
};

// One command on the lock's keys, as the tracer saw it on one master and what it meant. Only
// commands that name the lock's keys get this far: nothing of another key is ever in one.
struct TracedCommand
{
    int master = -1;
    qint64 timeUs = 0; // the master's clock, µs since the epoch
    qint64 seenMs = 0; // this machine's clock when it arrived, ms since the epoch (what a recording uses)
    TraceClient client;
    QByteArrayList args;               // the command as the master ran it
    QList<QByteArrayList> scriptCalls; // a script's own calls on the lock's keys, in order
    TraceMeaning meaning = TraceMeaning::Other;
    QByteArray token;        // the token it took, held, released or tried (where one is known)
    QByteArray holderToken;  // who held the lock when it ran (empty: nobody, or not known)
    QByteArray holderClient; // that holder's connection, where the trace saw it take the lock
    QString detail;          // why this meaning, for people (escaped)

    // An acquire that came after a lease ran out unreleased: the token it ran out on and the
    // connection that took that token (where the trace saw it), and whether that connection was still
    // open when this one took the lock (a CLIENT LIST asked after it): its holder alive, not exited.
    enum class Lapsed
    {
        None,    // not such an acquire, or its holder's connection is not known
        Unasked, // the list could not be had
        Open,    // still connected
        Closed,  // gone before this took the lock
    };
    Lapsed lapsed = Lapsed::None;
    QByteArray lapsedToken;
    QByteArray lapsedClient;
    qint64 lapsedIdleS = -1; // that connection's idle time in the list, where open
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::TracedCommand)
