#include "urltext.h"

namespace lockscope {

QString quotedUrlPart(QStringView text)
{
    return QLatin1Char('\'') + text.left(64).toString() + QLatin1Char('\'');
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
