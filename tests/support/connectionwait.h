// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisconnection.h"

#include <QByteArrayList>

namespace lockscope::test {

// Sends `argv` and runs the event loop until its reply came, or gives up after `ms` with a Cancelled
// error that says so.
RedisResult callAndWait(RedisConnection& connection, const QByteArrayList& argv, int ms = 5000);
// Runs the event loop until `connection` is in `state`, for at most `ms`; whether it got there.
bool waitForState(RedisConnection& connection, RedisConnection::State state, int ms = 5000);

} // namespace lockscope::test
