// SPDX-License-Identifier: Apache-2.0
#include "support/redisservergroup.h"

#include "support/lockctlrun.h"

namespace lockscope::test {

bool RedisServerGroup::start(int count, const RedisServerOptions& options)
{
    m_servers.clear();
    for (int i = 0; i < count; ++i) {
        auto server = std::make_unique<RedisServer>(options);
        if (!server->start()) {
            m_error = server->errorString();
            return false;
        }
        m_servers.push_back(std::move(server));
    }
    return true;
}

int RedisServerGroup::countOf(const QByteArray& key)
{
    int n = 0;
    for (int i = 0; i < size(); ++i)
        if (at(i).isRunning())
            n += int(at(i).command({"EXISTS", key}).integer);
    return n;
}

QStringList RedisServerGroup::urls(bool withSecret) const
{
    QStringList out;
    for (const auto& s : m_servers)
        out << s->url(withSecret);
    return out;
}

QList<ConnectionOptions> RedisServerGroup::connectionOptions(int timeoutMs) const
{
    QList<ConnectionOptions> out;
    for (const auto& s : m_servers)
        out << s->connectionOptions(timeoutMs);
    return out;
}

QStringList RedisServerGroup::lockctlArgs() const
{
    QStringList args = testPasswordArgs();
    for (const QString& url : urls(false))
        args << QStringLiteral("-m") << url;
    return args;
}

} // namespace lockscope::test
