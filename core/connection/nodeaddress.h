// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHashFunctions>
#include <QMetaType>
#include <QString>

namespace lockscope {

// One Redis node as a host and a port: a sentinel, a Sentinel-managed primary or a cluster node.
// A plain value, so that topology changes can be compared and reported.
struct NodeAddress
{
    QString host;
    quint16 port = 0;

    bool isValid() const { return !host.isEmpty() && port != 0; }
    // host:port, an IPv6 host in brackets.
    QString toString() const
    {
        const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
        return h + QLatin1Char(':') + QString::number(port);
    }

    bool operator==(const NodeAddress&) const = default;
    bool operator<(const NodeAddress& other) const
    {
        return host != other.host ? host < other.host : port < other.port;
    }
};

inline size_t qHash(const NodeAddress& address, size_t seed = 0)
{
    return qHashMulti(seed, address.host, address.port);
}

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::NodeAddress)
