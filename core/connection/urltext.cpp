// SPDX-License-Identifier: Apache-2.0
#include "connection/urltext.h"

#include <QUrl>

namespace lockscope {

QString urlScheme(QStringView text)
{
    const qsizetype end = text.indexOf(QLatin1String("://"));
    return end > 0 ? text.left(end).toString().toLower() : QString();
}

void takeUrlUserInfo(QStringView* rest, QString* user, QString* password)
{
    const qsizetype at = rest->lastIndexOf(QLatin1Char('@'));
    if (at < 0)
        return;
    const QStringView userInfo = rest->left(at);
    *rest = rest->mid(at + 1);
    const qsizetype colon = userInfo.indexOf(QLatin1Char(':'));
    *user = QUrl::fromPercentEncoding((colon >= 0 ? userInfo.left(colon) : userInfo).toUtf8());
    if (colon >= 0)
        *password = QUrl::fromPercentEncoding(userInfo.mid(colon + 1).toUtf8());
}

QStringView takeUrlQuery(QStringView* rest)
{
    const qsizetype q = rest->indexOf(QLatin1Char('?'));
    if (q < 0)
        return {};
    const QStringView query = rest->mid(q + 1);
    *rest = rest->left(q);
    return query;
}

QString quotedUrlPart(QStringView text)
{
    return QLatin1Char('\'') + text.left(64).toString() + QLatin1Char('\'');
}

QString quotedUrlScheme(QStringView scheme)
{
    bool wellFormed = !scheme.isEmpty() && scheme.size() <= 32;
    for (qsizetype i = 0; wellFormed && i < scheme.size(); ++i) {
        const ushort u = scheme[i].unicode();
        const bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
        const bool other = (u >= '0' && u <= '9') || u == '+' || u == '-' || u == '.';
        wellFormed = letter || (i > 0 && other);
    }
    return wellFormed ? quotedUrlPart(scheme) : QStringLiteral("(not a scheme name)");
}

bool parseUrlNumber(QStringView text, qint64 max, qint64* out)
{
    if (text.isEmpty() || text.size() > 10)
        return false;
    for (QChar c : text)
        if (c.unicode() < '0' || c.unicode() > '9')
            return false;
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value > max)
        return false;
    *out = value;
    return true;
}

bool isUrlHostName(QStringView host)
{
    if (host.size() > 253)
        return false;
    for (QChar c : host) {
        const ushort u = c.unicode();
        const bool allowed = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                             u == '.' || u == '-' || u == '_';
        if (!allowed)
            return false;
    }
    return !host.startsWith(QLatin1Char('-')) && !host.startsWith(QLatin1Char('.'));
}

} // namespace lockscope
