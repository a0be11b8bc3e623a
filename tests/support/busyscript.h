// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/redisserver.h"

#include <QString>

namespace lockscope::test {

// A script that keeps `server` busy for about `us` microseconds with EXISTS calls (each one counted
// as another client's command), its loop count measured on the server itself; empty when the
// measurement failed. Resets the server's command statistics. (A loop on TIME until the time is up
// does not end on Valkey 8, whose TIME inside a script is the script's start time.)
QString busyScript(const RedisServer& server, qint64 us);

} // namespace lockscope::test
