// SPDX-License-Identifier: Apache-2.0
#include "topology/clusterredirect.h"

#include "base/bytesdisplay.h"

#include "topology/clusterkeyslot.h"

namespace lockscope {

std::optional<ClusterRedirect> ClusterRedirect::fromReply(const RedisReply& reply,
                                                          const QString& answeredByHost)
{
    if (!reply.isError())
        return std::nullopt;
    const QList<QByteArray> words = reply.string.split(' ');
    if (words.size() != 3)
        return std::nullopt;
    ClusterRedirect redirect;
    if (words[0] == "MOVED")
        redirect.kind = Kind::Moved;
    else if (words[0] == "ASK")
        redirect.kind = Kind::Ask;
    else
        return std::nullopt;
    bool ok = false;
    redirect.slot = words[1].toInt(&ok);
    if (!ok || redirect.slot < 0 || redirect.slot >= ClusterKeySlot::slotCount)
        return std::nullopt;
    // The port follows the last ':', so that an IPv6 host keeps its own colons.
    const QByteArray& address = words[2];
    const qsizetype colon = address.lastIndexOf(':');
    if (colon < 0)
        return std::nullopt;
    const uint port = address.mid(colon + 1).toUInt(&ok);
    if (!ok || port == 0 || port > 65535)
        return std::nullopt;
    QByteArray host = address.left(colon);
    if (host.startsWith('[') && host.endsWith(']'))
        host = host.mid(1, host.size() - 2);
    redirect.target.host = host.isEmpty() ? answeredByHost : escapeBytes(host);
    redirect.target.port = quint16(port);
    if (!redirect.target.isValid())
        return std::nullopt;
    return redirect;
}

} // namespace lockscope
