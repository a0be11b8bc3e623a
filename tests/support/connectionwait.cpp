// SPDX-License-Identifier: Apache-2.0
#include "support/connectionwait.h"

#include <QCoreApplication>
#include <QDeadlineTimer>

namespace lockscope::test {

RedisResult callAndWait(RedisConnection& connection, const QByteArrayList& argv, int ms)
{
    RedisResult out;
    bool done = false;
    connection.send(argv, [&](const RedisResult& r) {
        out = r;
        done = true;
    });
    const QDeadlineTimer deadline(ms);
    while (!done && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    if (!done)
        out.error =
            RedisError(ErrorKind::Cancelled, connection.name(), QStringLiteral("test gave up waiting"));
    return out;
}

bool waitForState(RedisConnection& connection, RedisConnection::State state, int ms)
{
    const QDeadlineTimer deadline(ms);
    while (connection.state() != state && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    return connection.state() == state;
}

} // namespace lockscope::test
