// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisconnection.h"
#include "support/scriptedtransport.h"

#include <QStringList>

#include <functional>
#include <initializer_list>
#include <memory>

// A RedisConnection over a ScriptedTransport, and what its unit tests share: options without
// health pings or retries, the event loop run until something holds, replies written as one line
// of text, callback results collected in order.
namespace lockscope::test {

// A connection to `url` with no PINGs between the scripted replies, no retries, 5 s timeouts.
ConnectionOptions fakeOptions(const QString& url = QStringLiteral("redis://127.0.0.1:6379"));

// A byte string literal that may hold NULs: its length comes from the array, not from strlen.
template <qsizetype N> QByteArray raw(const char (&bytes)[N])
{
    return QByteArray(bytes, N - 1);
}

// Runs the event loop until `done` holds or `ms` pass.
bool spinUntil(const std::function<bool()>& done, int ms = 5000);
// Runs the event loop for `ms`, whatever happens.
void spinFor(int ms);

// A reply as one line of text, so that a mismatch shows where it is: +status, -error, :integer,
// $bulk, nil, [elements], bytes outside printable ASCII as \xHH.
QString describe(const RedisReply& r);
// The reply, or "error:" and the error's kind.
QString describe(const RedisResult& r);

// Collects callback results in arrival order. Declare it before the ScriptedRig so that it outlives
// the connection whose callbacks point at it.
struct Results
{
    QList<RedisResult> all;

    RedisConnection::Callback add();
    QStringList described() const;
    int count(ErrorKind kind) const;
};

// A connection over a scripted transport that it owns; `transport` stays valid as long as it lives.
struct ScriptedRig
{
    ScriptedTransport* transport = nullptr;
    std::unique_ptr<RedisConnection> connection;
    QList<RedisConnection::State> states;

    explicit ScriptedRig(ConnectionOptions options = fakeOptions());
    RedisConnection* operator->() const { return connection.get(); }

    // Whether the connection's last error message holds every one of `words`; says what it holds when not.
    bool lastErrorSays(const QStringList& words) const;
    // Whether the connection is down with an error of `kind` whose message holds every one of `words`.
    bool isDownWith(ErrorKind kind, const QStringList& words) const;
    // Opens with a healthy scripted server, then hands the replies over to the test.
    bool bringUp(const QByteArray& runId = ScriptedTransport::defaultRunId());
    // Waits until `n` commands in all have been written since the transport was opened.
    bool waitWritten(qsizetype n) const;
    // Sends `argv` `times` times, answered into `results`, and waits until they are written.
    bool sendWritten(Results& results, const QByteArrayList& argv, int times = 1);
};

// The handshake of a connection without password or database: CLIENT SETNAME, INFO ×2, TIME,
// COMMAND INFO.
constexpr int plainHandshake = 5;

// The short names of the tests over a ScriptedTransport: T::bulk("x"), State::Up, Rig rig.
namespace scripted {
using T = ScriptedTransport;
using State = RedisConnection::State;
using Rig = ScriptedRig;
} // namespace scripted

} // namespace lockscope::test
