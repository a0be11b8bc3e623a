#include "connection/redisurl.h"

#include "connection/urltext.h"

#include <QHostAddress>
#include <QUrl>

namespace lockscope {

namespace {

const QString usage = QStringLiteral("expected redis://[user[:password]@]host[:port][/db], "
                                     "rediss://... or unix:///path/to/socket[?db=N]");

RedisError urlError(const QString& why)
{
    return {ErrorKind::InvalidUrl, QString(), QStringLiteral("invalid URL: %1 (%2)").arg(why, usage)};
}

} // namespace

Result<RedisUrl> RedisUrl::parse(const QString& input)
{
    const QString text = input.trimmed();
    const qsizetype schemeEnd = text.indexOf(QLatin1String("://"));
    if (schemeEnd <= 0)
        return urlError(QStringLiteral("missing scheme"));

    RedisUrl url;
    const QString scheme = text.left(schemeEnd).toLower();
    if (scheme == QLatin1String("redis"))
        url.m_scheme = Scheme::Tcp;
    else if (scheme == QLatin1String("rediss"))
        url.m_scheme = Scheme::Tls;
    else if (scheme == QLatin1String("unix"))
        url.m_scheme = Scheme::Unix;
    else
        return urlError(QStringLiteral("unsupported scheme %1").arg(quotedUrlScheme(scheme)));

    QStringView rest = QStringView(text).mid(schemeEnd + 3);
    if (url.m_scheme != Scheme::Unix) {
        // The user-info ends at the last '@', before anything else is split: a password with an
        // unencoded '?', '#', '/' or '@' is still a password, never a host, port or parameter, so
        // no error below can quote any of it. (Percent-encoding them is the portable way.)
        if (const qsizetype at = rest.lastIndexOf(QLatin1Char('@')); at >= 0) {
            const QStringView userInfo = rest.left(at);
            rest = rest.mid(at + 1);
            const qsizetype colon = userInfo.indexOf(QLatin1Char(':'));
            const QStringView user = colon >= 0 ? userInfo.left(colon) : userInfo;
            url.m_user = QUrl::fromPercentEncoding(user.toUtf8());
            if (colon >= 0)
                url.m_password = QUrl::fromPercentEncoding(userInfo.mid(colon + 1).toUtf8());
        }
    }
    QStringView query;
    if (const qsizetype q = rest.indexOf(QLatin1Char('?')); q >= 0) {
        query = rest.mid(q + 1);
        rest = rest.left(q);
    }

    if (url.m_scheme == Scheme::Unix) {
        if (!rest.startsWith(QLatin1Char('/')) || rest.size() < 2)
            return urlError(QStringLiteral("a unix socket URL needs an absolute path"));
        url.m_socketPath = QUrl::fromPercentEncoding(rest.toUtf8());
        url.m_port = 0;
    } else {
        QStringView path;
        if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0) {
            path = rest.mid(slash + 1);
            rest = rest.left(slash);
        }
        QStringView portText;
        if (rest.startsWith(QLatin1Char('['))) {
            const qsizetype close = rest.indexOf(QLatin1Char(']'));
            if (close < 0)
                return urlError(QStringLiteral("unclosed '[' in IPv6 address"));
            url.m_host = rest.mid(1, close - 1).toString();
            QHostAddress address;
            if (!address.setAddress(url.m_host) || address.protocol() != QAbstractSocket::IPv6Protocol)
                return urlError(QStringLiteral("bad IPv6 address %1").arg(quotedUrlPart(url.m_host)));
            const QStringView after = rest.mid(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(QLatin1Char(':')))
                    return urlError(QStringLiteral("unexpected text after IPv6 address"));
                portText = after.mid(1);
                if (portText.isEmpty())
                    return urlError(QStringLiteral("empty port"));
            }
        } else {
            const qsizetype colon = rest.indexOf(QLatin1Char(':'));
            url.m_host = (colon >= 0 ? rest.left(colon) : rest).toString();
            if (colon >= 0) {
                portText = rest.mid(colon + 1);
                if (portText.isEmpty())
                    return urlError(QStringLiteral("empty port"));
            }
            if (url.m_host.isEmpty())
                return urlError(QStringLiteral("missing host"));
            if (!isUrlHostName(url.m_host))
                return urlError(QStringLiteral("bad host name %1").arg(quotedUrlPart(url.m_host)));
        }
        if (!portText.isEmpty()) {
            qint64 port = 0;
            if (!parseUrlNumber(portText, 65535, &port) || port == 0)
                return urlError(QStringLiteral("bad port %1 (1-65535)").arg(quotedUrlPart(portText)));
            url.m_port = quint16(port);
        }
        if (!path.isEmpty()) {
            qint64 db = 0;
            if (!parseUrlNumber(path, 1 << 20, &db))
                return urlError(QStringLiteral("bad database number %1").arg(quotedUrlPart(path)));
            url.m_db = int(db);
        }
    }

    if (!query.isEmpty()) {
        for (QStringView pair : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
            const qsizetype eq = pair.indexOf(QLatin1Char('='));
            const QStringView name = eq >= 0 ? pair.left(eq) : pair;
            const QStringView value = eq >= 0 ? pair.mid(eq + 1) : QStringView();
            if (name == QLatin1String("db")) {
                qint64 db = 0;
                if (!parseUrlNumber(value, 1 << 20, &db))
                    return urlError(QStringLiteral("bad database number %1").arg(quotedUrlPart(value)));
                url.m_db = int(db);
            } else {
                return urlError(QStringLiteral("unknown parameter %1").arg(quotedUrlPart(name)));
            }
        }
    }
    return url;
}

QString RedisUrl::toString() const
{
    const QString user =
        m_user.isEmpty() ? QString() : QString::fromUtf8(QUrl::toPercentEncoding(m_user)) + QLatin1Char('@');
    if (m_scheme == Scheme::Unix) {
        // Encoded as parse() decodes it, so that a path with '%' or '?' reads back as the same path.
        QString out =
            QStringLiteral("unix://") + QString::fromUtf8(QUrl::toPercentEncoding(m_socketPath, "/"));
        if (m_db != 0)
            out += QStringLiteral("?db=") + QString::number(m_db);
        return out;
    }
    const QString host =
        m_host.contains(QLatin1Char(':')) ? QLatin1Char('[') + m_host + QLatin1Char(']') : m_host;
    QString out = (m_scheme == Scheme::Tls ? QStringLiteral("rediss://") : QStringLiteral("redis://")) +
                  user + host + QLatin1Char(':') + QString::number(m_port);
    if (m_db != 0)
        out += QLatin1Char('/') + QString::number(m_db);
    return out;
}

} // namespace lockscope
