// SPDX-License-Identifier: Apache-2.0
#include "audit/teamdatabaseurl.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace lockscope {

namespace {

RedisError invalid(const QString& why)
{
    return {ErrorKind::InvalidUrl, QString(), QStringLiteral("team database URL: %1").arg(why)};
}

} // namespace

bool TeamDatabaseUrl::isPostgresUrl(const QString& text)
{
    return text.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive) ||
           text.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

Result<TeamDatabaseUrl> TeamDatabaseUrl::parse(const QString& text)
{
    if (!isPostgresUrl(text))
        return invalid(QStringLiteral("expected postgresql://USER@HOST[:PORT]/DBNAME"));
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return invalid(QStringLiteral("not a valid URL"));
    if (!url.password().isEmpty() || text.section(QLatin1Char('@'), 0, 0).count(QLatin1Char(':')) > 1)
        return invalid(QStringLiteral("it holds a password, which would be shown and saved with it; set "
                                      "PGPASSWORD, ~/.pgpass or --team-db-password-env instead"));
    TeamDatabaseUrl out;
    out.host = url.host();
    out.user = url.userName();
    out.database = url.path().mid(1);
    if (out.host.isEmpty())
        return invalid(QStringLiteral("no host"));
    if (out.user.isEmpty())
        return invalid(QStringLiteral("no user (postgresql://USER@HOST/DBNAME)"));
    if (out.database.isEmpty() || out.database.contains(QLatin1Char('/')))
        return invalid(QStringLiteral("no database name (postgresql://USER@HOST/DBNAME)"));
    out.port = url.port(5432);
    if (out.port <= 0 || out.port > 65535)
        return invalid(QStringLiteral("port out of range"));
    const QUrlQuery query(url);
    for (const auto& [key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1String("sslmode")) {
            static const QStringList modes{QStringLiteral("disable"),   QStringLiteral("allow"),
                                           QStringLiteral("prefer"),    QStringLiteral("require"),
                                           QStringLiteral("verify-ca"), QStringLiteral("verify-full")};
            if (!modes.contains(value))
                return invalid(
                    QStringLiteral("sslmode must be one of %1").arg(modes.join(QStringLiteral(", "))));
            out.sslMode = value;
        } else if (key == QLatin1String("sslrootcert")) {
            // Qt hands the options to libpq as one "key=value key=value" string.
            if (value.isEmpty() || value.contains(QRegularExpression(QStringLiteral("[\\s;'\\\\]"))))
                return invalid(
                    QStringLiteral("sslrootcert must be a file name without spaces, quotes or ';'"));
            out.sslRootCert = value;
        } else if (key == QLatin1String("connect_timeout")) {
            bool ok = false;
            out.connectTimeoutS = value.toInt(&ok);
            if (!ok || out.connectTimeoutS < 1 || out.connectTimeoutS > 600)
                return invalid(QStringLiteral("connect_timeout must be 1 to 600 seconds"));
        } else if (key == QLatin1String("password")) {
            return invalid(QStringLiteral("it holds a password, which would be shown and saved with it; set "
                                          "PGPASSWORD, ~/.pgpass or --team-db-password-env instead"));
        } else {
            // Only what is known reaches libpq: its other keywords open files or run commands.
            return invalid(QStringLiteral("unknown parameter `%1` (sslmode, sslrootcert, connect_timeout)")
                               .arg(key.left(40)));
        }
    }
    return out;
}

QString TeamDatabaseUrl::toString() const
{
    QUrl url;
    url.setScheme(QStringLiteral("postgresql"));
    url.setUserName(user);
    url.setHost(host);
    if (port != 5432)
        url.setPort(port);
    url.setPath(QLatin1Char('/') + database);
    QUrlQuery query;
    if (!sslMode.isEmpty())
        query.addQueryItem(QStringLiteral("sslmode"), sslMode);
    if (!sslRootCert.isEmpty())
        query.addQueryItem(QStringLiteral("sslrootcert"), sslRootCert);
    url.setQuery(query);
    return url.toString();
}

QString TeamDatabaseUrl::connectOptions() const
{
    // Qt passes these to libpq as keyword=value pairs, ';' between them.
    QStringList options{QStringLiteral("connect_timeout=%1").arg(connectTimeoutS),
                        QStringLiteral("application_name=lockscope")};
    if (!sslMode.isEmpty())
        options << QStringLiteral("sslmode=") + sslMode;
    if (!sslRootCert.isEmpty())
        options << QStringLiteral("sslrootcert=") + sslRootCert;
    return options.join(QLatin1Char(';'));
}

} // namespace lockscope
