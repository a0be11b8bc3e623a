// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "support/redisserver.h"
#include "support/sentinelprocess.h"

#include <memory>
#include <vector>

namespace lockscope::test {

struct SentinelGroupOptions
{
    int replicas = 1;
    int sentinels = 3;
    QString masterName = QStringLiteral("mymaster");
    int downAfterMs = 1000;
    int failoverTimeoutMs = 3000;
    // For the primary and the replicas (password: masterauth/auth-pass too). With `tls` the whole
    // group is TLS only: data nodes and sentinels have no plain port, and replication and the
    // sentinels' links go over TLS (requireClientCert applies to the sentinels too).
    RedisServerOptions dataOptions;
    // The sentinels require the data nodes' password too (requirepass, and sentinel-pass between
    // them), and url() says sentinel-auth=yes. false only for a test about sentinels that take no
    // password (sentinel-auth=no): say why where it is set.
    bool sentinelPassword = true;
};

// A Sentinel-managed group on loopback: data node 0 starts as the primary, the others replicate it,
// and `sentinels` sentinels watch it with fast failover settings. start() returns once the replicas are
// in sync and every sentinel knows the others and the replicas, so that a failover can happen at once.
// Every process is stopped by pid when the group goes, also when a test fails half-way.
class SentinelGroup
{
public:
    bool start(const SentinelGroupOptions& options = {});
    const QString& errorString() const { return m_error; }
    const SentinelGroupOptions& options() const { return m_options; }

    int dataNodeCount() const { return int(m_nodes.size()); }
    RedisServer& dataNode(int i) { return *m_nodes.at(size_t(i)); }
    int sentinelCount() const { return int(m_sentinels.size()); }
    SentinelProcess& sentinel(int i) { return *m_sentinels.at(size_t(i)); }

    // The running data node that reports ROLE master, -1 when none (or several) do.
    int primaryIndex() const;
    int indexOfPort(quint16 port) const;
    // redis-sentinel://127.0.0.1:p1,127.0.0.1:p2,.../<master-name> (rediss-sentinel:// for a TLS
    // group), credentials when `withSecret`, ?sentinel-auth=yes when the sentinels require the password.
    QString url(bool withSecret = true) const;
    // Timeouts and TLS settings (the test CA, and the client certificate when the group requires
    // one) for the code under test.
    ConnectionOptions nodeOptions(int timeoutMs = 2000) const;

    // Polls (with a deadline) until every running sentinel names data node `index` as primary and it
    // reports ROLE master.
    bool waitForPrimary(int index, int timeoutMs = 30000);

private:
    bool waitUntilSettled(int timeoutMs);

    SentinelGroupOptions m_options;
    std::vector<std::unique_ptr<RedisServer>> m_nodes;
    std::vector<std::unique_ptr<SentinelProcess>> m_sentinels;
    QString m_error;
};

} // namespace lockscope::test
