#include "connection/urltext.h"

namespace lockscope {

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
