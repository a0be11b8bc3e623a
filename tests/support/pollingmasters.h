// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"

#include <QByteArray>

namespace lockscope::test {

class RedisServer;
class RedisServerGroup;

// Starts `count` masters with keyspace notifications off (the monitor can only poll them) and
// points `config` at them, each with `timeoutMs` to connect and answer. False when they did not
// start (group.errorString() says why).
bool startPollingMasters(RedisServerGroup& group, int count, LockScopeConfig& config, int timeoutMs = 1000);
// The server's notify-keyspace-events flags ("" when notifications are off).
QByteArray notifyFlags(const RedisServer& server);

} // namespace lockscope::test
