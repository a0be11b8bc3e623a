// SPDX-License-Identifier: Apache-2.0
#include "connection/redisurl.h"

#include "connection/hostport.h"
#include "connection/urltext.h"

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
    const QString scheme = urlScheme(text);
    if (scheme.isEmpty())
        return urlError(QStringLiteral("missing scheme"));

    RedisUrl url;
    if (scheme == QLatin1String("redis"))
        url.m_scheme = Scheme::Tcp;
    else if (scheme == QLatin1String("rediss"))
        url.m_scheme = Scheme::Tls;
    else if (scheme == QLatin1String("unix"))
        url.m_scheme = Scheme::Unix;
    else
        return urlError(QStringLiteral("unsupported scheme %1").arg(quotedUrlScheme(scheme)));

    QStringView rest = QStringView(text).mid(text.indexOf(QLatin1String("://")) + 3);
    // (Percent-encoding '?', '#', '/' and '@' in a password is the portable way; takeUrlUserInfo
    // copes without.) A socket path has no user-info.
    if (url.m_scheme != Scheme::Unix)
        takeUrlUserInfo(&rest, &url.m_user, &url.m_password);
    const QStringView query = takeUrlQuery(&rest);

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
        const HostPort node = HostPort::parse(rest);
        if (const QString why = node.problem(rest, HostPort::Wording::OneHost); !why.isEmpty())
            return urlError(why);
        url.m_host = node.host;
        url.m_port = node.port.value_or(defaultPort);
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
