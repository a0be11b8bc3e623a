// SPDX-License-Identifier: Apache-2.0
#include "support/sentinelgroup.h"

#include "support/blockingcommand.h"
#include "support/tlsmaterial.h"

#include <QDeadlineTimer>
#include <QThread>

namespace lockscope::test {

bool SentinelGroup::start(const SentinelGroupOptions& options)
{
    m_options = options;
    m_options.dataOptions.tlsOnly = options.dataOptions.tls;
    // One password for the whole group: replicas log in to the primary with it, sentinels to both.
    RedisServerOptions& data = m_options.dataOptions;
    if (data.withoutPassword)
        data.password.clear();
    else if (data.password.isEmpty())
        data.password = testPassword();
    m_sentinels.clear();
    m_nodes.clear();
    auto primary = std::make_unique<RedisServer>(m_options.dataOptions);
    if (!primary->start()) {
        m_error = QStringLiteral("primary: ") + primary->errorString();
        return false;
    }
    const quint16 primaryPort = primary->adminPort();
    m_nodes.push_back(std::move(primary));
    for (int i = 0; i < options.replicas; ++i) {
        RedisServerOptions replicaOptions = m_options.dataOptions;
        replicaOptions.extraArgs << QStringLiteral("--replicaof") << QStringLiteral("127.0.0.1")
                                 << QString::number(primaryPort);
        auto replica = std::make_unique<RedisServer>(replicaOptions);
        if (!replica->start()) {
            m_error = QStringLiteral("replica: ") + replica->errorString();
            return false;
        }
        m_nodes.push_back(std::move(replica));
    }
    SentinelMonitor monitor;
    monitor.masterName = options.masterName;
    monitor.primaryPort = primaryPort;
    monitor.quorum = options.sentinels / 2 + 1;
    monitor.downAfterMs = options.downAfterMs;
    monitor.failoverTimeoutMs = options.failoverTimeoutMs;
    monitor.authPass = data.password;
    if (m_options.sentinelPassword)
        monitor.password = data.password;
    monitor.tls = options.dataOptions.tls;
    monitor.requireClientCert = options.dataOptions.requireClientCert;
    for (int i = 0; i < options.sentinels; ++i) {
        auto sentinel = std::make_unique<SentinelProcess>(monitor);
        if (!sentinel->start()) {
            m_error = QStringLiteral("sentinel: ") + sentinel->errorString();
            return false;
        }
        m_sentinels.push_back(std::move(sentinel));
    }
    return waitUntilSettled(30000);
}

bool SentinelGroup::waitUntilSettled(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    const QByteArray name = m_options.masterName.toUtf8();
    while (!deadline.hasExpired()) {
        bool settled = true;
        for (size_t i = 1; i < m_nodes.size() && settled; ++i)
            settled =
                infoField(m_nodes[i]->command({"INFO", "replication"}).string, "master_link_status") == "up";
        for (const auto& sentinel : m_sentinels) {
            if (!settled)
                break;
            const RedisReply others = sentinel->command({"SENTINEL", "SENTINELS", name});
            const RedisReply replicas = sentinel->command({"SENTINEL", "REPLICAS", name});
            settled = others.isArray() && others.elements.size() == qsizetype(m_sentinels.size() - 1) &&
                      replicas.isArray() && replicas.elements.size() == qsizetype(m_nodes.size() - 1);
            // A replica is only a failover candidate once the sentinel has seen it connected.
            for (const RedisReply& replica : replicas.elements) {
                for (qsizetype f = 0; settled && f + 1 < replica.elements.size(); f += 2)
                    if (replica.elements[f].string == "flags")
                        settled = !replica.elements[f + 1].string.contains("disconnected") &&
                                  !replica.elements[f + 1].string.contains("_down");
            }
        }
        if (settled)
            return true;
        QThread::msleep(50);
    }
    m_error =
        QStringLiteral("the sentinels did not discover each other and the replicas in %1 ms").arg(timeoutMs);
    return false;
}

int SentinelGroup::primaryIndex() const
{
    int found = -1;
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (!m_nodes[i]->isRunning())
            continue;
        const RedisReply role = m_nodes[i]->command({"ROLE"});
        if (role.isArray() && !role.elements.isEmpty() && role.elements.front().string == "master") {
            if (found >= 0)
                return -1;
            found = int(i);
        }
    }
    return found;
}

int SentinelGroup::indexOfPort(quint16 port) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i]->port() == port)
            return int(i);
    return -1;
}

QString SentinelGroup::url(bool withSecret) const
{
    QString auth;
    const RedisServerOptions& data = m_options.dataOptions;
    if (!data.aclUser.isEmpty())
        auth =
            data.aclUser + (withSecret ? QLatin1Char(':') + data.aclPassword : QString()) + QLatin1Char('@');
    else if (!data.password.isEmpty() && withSecret)
        auth = QLatin1Char(':') + data.password + QLatin1Char('@');
    QStringList hosts;
    for (const auto& sentinel : m_sentinels)
        hosts << QStringLiteral("127.0.0.1:%1").arg(sentinel->port());
    const QString scheme =
        data.tls ? QStringLiteral("rediss-sentinel://") : QStringLiteral("redis-sentinel://");
    const bool sentinelAuth = m_options.sentinelPassword && !data.password.isEmpty();
    return scheme + auth + hosts.join(QLatin1Char(',')) + QLatin1Char('/') + m_options.masterName +
           (sentinelAuth ? QStringLiteral("?sentinel-auth=yes") : QString());
}

ConnectionOptions SentinelGroup::nodeOptions(int timeoutMs) const
{
    ConnectionOptions options;
    options.commandTimeoutMs = timeoutMs;
    options.connectTimeoutMs = timeoutMs;
    if (m_options.dataOptions.tls) {
        const TlsMaterial& tls = TlsMaterial::instance();
        options.tls.caFile = tls.caFile();
        if (m_options.dataOptions.requireClientCert) {
            options.tls.certFile = tls.clientCertFile();
            options.tls.keyFile = tls.clientKeyFile();
        }
    }
    return options;
}

bool SentinelGroup::waitForPrimary(int index, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    const QByteArray port = QByteArray::number(dataNode(index).port());
    while (!deadline.hasExpired()) {
        bool agreed = primaryIndex() == index;
        for (const auto& sentinel : m_sentinels) {
            if (!agreed || !sentinel->isRunning())
                continue;
            const RedisReply addr =
                sentinel->command({"SENTINEL", "get-master-addr-by-name", m_options.masterName.toUtf8()});
            agreed = addr.isArray() && addr.elements.size() == 2 && addr.elements[1].string == port;
        }
        if (agreed)
            return true;
        QThread::msleep(50);
    }
    return false;
}

} // namespace lockscope::test
