// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "connection/connectionoptions.h"

#include <QList>

namespace lockscope::test {

class RedisServerGroup;

// What window and monitor tests watch real masters with: health checks every 100 ms, reconnects
// after 50-200 ms, a poll every 200 ms, so that a change on a master shows within a test's patience
// rather than the product's gentler defaults. A Redlock's wait per master is the product's 50 ms
// scaled to the machine (upperBoundMs): a test of what the window does with an acquired lock must
// get the lock; a sanitizer build on a busy machine answered a SET NX slower than 50 ms, and the
// acquisition it was about failed (issue #48).
LockScopeConfig quickConfig(const QList<ConnectionOptions>& masters);
// The group's masters (with the fixture password), each with `timeoutMs` to connect and answer.
LockScopeConfig quickConfig(const RedisServerGroup& group, int timeoutMs = 1000);
// The defaults but a poll every `pollIntervalMs` and a `timeoutMs` per command: what the monitor
// tests of Sentinel and cluster entries (given as a MasterSet) run with.
LockScopeConfig pollingConfig(int pollIntervalMs, int timeoutMs = LockScopeConfig().timeoutMs);

} // namespace lockscope::test
