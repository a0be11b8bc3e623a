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

// The server as its program names itself (`redis-server --version`: "Redis server v=7.0.15 ...",
// "Valkey server v=8.0.1 ..."): the expectation for what LockScope shows, read without LockScope.
struct ServerIdentity
{
    QString name;          // lower case: "redis", "valkey"
    QString version;       // "7.0.15", "8.0.1"
    QString shown() const; // "Redis 7.0.15", "Valkey 8.0.1"
};
ServerIdentity serverIdentity();

} // namespace lockscope::test
