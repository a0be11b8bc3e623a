// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/redisserver.h"

#include <memory>
#include <vector>

namespace lockscope::test {

// N independent masters, as Redlock wants them. Unless `options` says otherwise they all require
// the test run's password (testPassword()).
class RedisServerGroup
{
public:
    bool start(int count, const RedisServerOptions& options = {});
    const QString& errorString() const { return m_error; }
    int size() const { return int(m_servers.size()); }
    RedisServer& at(int i) { return *m_servers.at(size_t(i)); }
    QStringList urls(bool withSecret = true) const;
    // lockctl's global arguments for these masters: the password's (testPasswordArgs()), then
    // -m URL for each.
    QStringList lockctlArgs() const;
    QList<ConnectionOptions> connectionOptions(int timeoutMs = 2000) const;
    // On how many of the running servers `key` exists (a lock's holders, when it is one).
    int countOf(const QByteArray& key);

private:
    std::vector<std::unique_ptr<RedisServer>> m_servers;
    QString m_error;
};

} // namespace lockscope::test
