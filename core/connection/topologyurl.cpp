// SPDX-License-Identifier: Apache-2.0
#include "connection/topologyurl.h"

#include "connection/hostport.h"
#include "connection/urltext.h"

#include <QUrl>

namespace lockscope {

namespace {

const QString topologyUsage =
    QStringLiteral("expected redis-sentinel://[user[:password]@]host[:port][,host[:port]...]/master-name "
                   "or redis-cluster://[user[:password]@]host[:port][,host[:port]...] "
                   "(rediss-sentinel:// and rediss-cluster:// for TLS)");

RedisError topologyUrlError(const QString& why)
{
    return {ErrorKind::InvalidUrl, QString(), QStringLiteral("invalid URL: %1 (%2)").arg(why, topologyUsage)};
}

Result<NodeAddress> parseSeed(QStringView text, quint16 defaultPort)
{
    if (text.isEmpty())
        return topologyUrlError(QStringLiteral("empty entry in the host list"));
    const HostPort seed = HostPort::parse(text);
    if (const QString why = seed.problem(text, HostPort::Wording::HostList); !why.isEmpty())
        return topologyUrlError(why);
    return NodeAddress{seed.host, seed.port.value_or(defaultPort)};
}

} // namespace

bool TopologyUrl::hasTopologyScheme(const QString& text)
{
    const QString t = text.trimmed().toLower();
    return t.startsWith(QLatin1String("redis-sentinel://")) ||
           t.startsWith(QLatin1String("rediss-sentinel://")) ||
           t.startsWith(QLatin1String("redis-cluster://")) ||
           t.startsWith(QLatin1String("rediss-cluster://"));
}

Result<TopologyUrl> TopologyUrl::parse(const QString& input)
{
    const QString text = input.trimmed();
    const QString scheme = urlScheme(text);
    if (scheme.isEmpty())
        return topologyUrlError(QStringLiteral("missing scheme"));

    TopologyUrl url;
    if (scheme == QLatin1String("redis-sentinel") || scheme == QLatin1String("rediss-sentinel"))
        url.m_kind = Kind::Sentinel;
    else if (scheme == QLatin1String("redis-cluster") || scheme == QLatin1String("rediss-cluster"))
        url.m_kind = Kind::Cluster;
    else
        return topologyUrlError(QStringLiteral("unsupported scheme %1").arg(quotedUrlScheme(scheme)));
    url.m_tls = scheme.startsWith(QLatin1String("rediss-"));

    QStringView rest = QStringView(text).mid(text.indexOf(QLatin1String("://")) + 3);
    // The password may contain '@', '/', ',' or '?' when not percent-encoded: nothing before the
    // last '@' is split any further.
    takeUrlUserInfo(&rest, &url.m_user, &url.m_password);
    const QStringView query = takeUrlQuery(&rest);
    QStringView path;
    bool hasPath = false;
    if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0) {
        path = rest.mid(slash + 1);
        rest = rest.left(slash);
        hasPath = true;
    }

    if (rest.isEmpty())
        return topologyUrlError(QStringLiteral("missing host"));
    const quint16 defaultPort = url.isSentinel() ? defaultSentinelPort : defaultClusterPort;
    for (QStringView seedText : rest.split(QLatin1Char(','))) {
        Result<NodeAddress> seed = parseSeed(seedText, defaultPort);
        if (!seed)
            return seed.error();
        if (url.m_seeds.contains(*seed))
            return topologyUrlError(
                QStringLiteral("%1 is listed twice").arg(quotedUrlPart(seed->toString())));
        url.m_seeds.append(*seed);
    }

    if (url.isSentinel()) {
        if (!hasPath || path.isEmpty())
            return topologyUrlError(QStringLiteral("missing master name after the sentinel list"));
        if (path.contains(QLatin1Char('/')))
            return topologyUrlError(
                QStringLiteral("unexpected '/' in master name %1 (percent-encode it as %2F)")
                    .arg(quotedUrlPart(path)));
        url.m_masterName = QUrl::fromPercentEncoding(path.toUtf8());
        for (QChar c : url.m_masterName)
            if (c.isSpace() || !c.isPrint())
                return topologyUrlError(QStringLiteral("master name %1 contains a space or control character")
                                            .arg(quotedUrlPart(path)));
    } else if (!path.isEmpty()) {
        return topologyUrlError(
            QStringLiteral("a cluster URL has no path (%1): Redis Cluster has only database 0")
                .arg(quotedUrlPart(path)));
    }

    for (QStringView pair : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        const QStringView name = eq >= 0 ? pair.left(eq) : pair;
        const QStringView value = eq >= 0 ? pair.mid(eq + 1) : QStringView();
        if (name == QLatin1String("db") && url.isSentinel()) {
            qint64 db = 0;
            if (!parseUrlNumber(value, 1 << 20, &db))
                return topologyUrlError(QStringLiteral("bad database number %1").arg(quotedUrlPart(value)));
            url.m_db = int(db);
        } else if (name == QLatin1String("sentinel-auth") && url.isSentinel()) {
            if (value == QLatin1String("yes"))
                url.m_sentinelAuth = true;
            else if (value == QLatin1String("no"))
                url.m_sentinelAuth = false;
            else
                return topologyUrlError(
                    QStringLiteral("sentinel-auth must be yes or no, not %1").arg(quotedUrlPart(value)));
        } else {
            return topologyUrlError(QStringLiteral("unknown parameter %1").arg(quotedUrlPart(name)));
        }
    }
    return url;
}

RedisUrl TopologyUrl::makeUrl(const NodeAddress& node, bool withCredentials, int db) const
{
    QString userInfo;
    if (withCredentials && (!m_user.isEmpty() || !m_password.isEmpty())) {
        userInfo = QString::fromUtf8(QUrl::toPercentEncoding(m_user));
        if (!m_password.isEmpty())
            userInfo += QLatin1Char(':') + QString::fromUtf8(QUrl::toPercentEncoding(m_password));
        userInfo += QLatin1Char('@');
    }
    QString text =
        (m_tls ? QStringLiteral("rediss://") : QStringLiteral("redis://")) + userInfo + node.toString();
    if (db != 0)
        text += QLatin1Char('/') + QString::number(db);
    Result<RedisUrl> url = RedisUrl::parse(text);
    // Hosts and ports were validated by parse() (or came from a server); a failure here is a host
    // name RedisUrl refuses, and the connection then reports it as unreachable.
    return url ? *url : RedisUrl();
}

RedisUrl TopologyUrl::seedUrl(int index) const
{
    const bool credentials = isCluster() || m_sentinelAuth;
    return makeUrl(m_seeds.at(index), credentials, 0);
}

RedisUrl TopologyUrl::nodeUrl(const NodeAddress& node) const
{
    return makeUrl(node, true, m_db);
}

QString TopologyUrl::toString() const
{
    QString out = m_tls ? QStringLiteral("rediss-") : QStringLiteral("redis-");
    out += isSentinel() ? QStringLiteral("sentinel://") : QStringLiteral("cluster://");
    if (!m_user.isEmpty())
        out += QString::fromUtf8(QUrl::toPercentEncoding(m_user)) + QLatin1Char('@');
    QStringList hosts;
    for (const NodeAddress& seed : m_seeds)
        hosts << seed.toString();
    out += hosts.join(QLatin1Char(','));
    if (isSentinel()) {
        out += QLatin1Char('/') + QString::fromUtf8(QUrl::toPercentEncoding(m_masterName));
        QStringList params;
        if (m_db != 0)
            params << QStringLiteral("db=") + QString::number(m_db);
        if (m_sentinelAuth)
            params << QStringLiteral("sentinel-auth=yes");
        if (!params.isEmpty())
            out += QLatin1Char('?') + params.join(QLatin1Char('&'));
    }
    return out;
}

} // namespace lockscope
