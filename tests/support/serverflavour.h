// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope::test {

// Which server the real-server fixtures start (RedisServer, SentinelProcess, and through them every
// group): Redis 7 by default, Valkey 8 when LOCKSCOPE_SERVER=valkey. The compatibility tests are
// registered a second time as `valkey.NAME` with that variable set (tests/CMakeLists.txt, issue #46):
// one suite, two servers. The clients the fixtures use (redis-cli) stay the same for both.
enum class ServerFlavour
{
    Redis,
    Valkey
};

// From LOCKSCOPE_SERVER ("redis", "valkey" or unset); any other value ends the test run at once,
// so a typo never passes as a Redis run.
ServerFlavour serverFlavour();
// "redis-server" or "valkey-server".
QString serverProgram();

} // namespace lockscope::test
