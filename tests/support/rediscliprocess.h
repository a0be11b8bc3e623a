// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

#include <memory>

namespace lockscope::test {

class RedisServer;

// A real redis-cli on `server`, reading its commands from standard input (kept open, so the
// connection stays until the process is killed). Logs in through REDISCLI_AUTH, never argv.
// With `-r -1 -i 0.3 PEXPIRE key ms` it is a real client renewing a lock for ever.
std::unique_ptr<QProcess> startCli(const RedisServer& server, const QStringList& args,
                                   const QByteArray& input = {});
// Kills it (if it still runs) and waits for it.
void stopCli(std::unique_ptr<QProcess>& p);

} // namespace lockscope::test
