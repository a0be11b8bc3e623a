// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "connection/nodeaddress.h"
#include "connection/redisurl.h"

#include <QList>
#include <QString>

namespace lockscope {

// A master entry that names a group of nodes rather than one server:
//   redis-sentinel://[user[:password]@]host[:port][,host[:port]...]/<master-name>[?db=N&sentinel-auth=yes]
//   redis-cluster://[user[:password]@]host[:port][,host[:port]...]
// `rediss-sentinel://` and `rediss-cluster://` use TLS for every node (sentinels and data nodes alike).
// Seeds are sentinels (default port 26379) or any cluster nodes (default port 6379); IPv6 hosts go in
// brackets. The credentials are for the data nodes; sentinels get them too only with sentinel-auth=yes,
// since sentinels usually run without a password. As with RedisUrl, the password is never printed.
class TopologyUrl
{
public:
    enum class Kind
    {
        Sentinel,
        Cluster,
    };

    static constexpr quint16 defaultSentinelPort = 26379;
    static constexpr quint16 defaultClusterPort = 6379;

    // True when `text` uses one of the four schemes above: the caller should parse it here,
    // not with RedisUrl.
    static bool hasTopologyScheme(const QString& text);
    // The error message never repeats the password, even when the input is malformed.
    static Result<TopologyUrl> parse(const QString& text);

    Kind kind() const { return m_kind; }
    bool isSentinel() const { return m_kind == Kind::Sentinel; }
    bool isCluster() const { return m_kind == Kind::Cluster; }
    bool isTls() const { return m_tls; }
    const QList<NodeAddress>& seeds() const { return m_seeds; }
    const QString& masterName() const { return m_masterName; } // Sentinel only
    int db() const { return m_db; }                            // Sentinel only; a cluster has db 0
    const QString& user() const { return m_user; }
    const QString& password() const { return m_password; }
    bool sentinelAuth() const { return m_sentinelAuth; }

    void setUser(const QString& user) { m_user = user; }
    void setPassword(const QString& password) { m_password = password; }

    // How to reach seed `index` (a sentinel or a cluster node), with the credentials it needs.
    RedisUrl seedUrl(int index) const;
    // How to reach a data node found through the seeds: a Sentinel primary or a cluster node.
    RedisUrl nodeUrl(const NodeAddress& node) const;

    // The URL without its password: safe for logs, tables, errors and JSON.
    QString toString() const;

    bool operator==(const TopologyUrl&) const = default;

private:
    RedisUrl makeUrl(const NodeAddress& node, bool withCredentials, int db) const;

    Kind m_kind = Kind::Sentinel;
    bool m_tls = false;
    QList<NodeAddress> m_seeds;
    QString m_masterName;
    int m_db = 0;
    QString m_user;
    QString m_password;
    bool m_sentinelAuth = false;
};

} // namespace lockscope
