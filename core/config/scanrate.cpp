// SPDX-License-Identifier: Apache-2.0
#include "config/scanrate.h"

namespace lockscope {

Result<ScanRate> ScanRate::parse(const QString& text)
{
    QString t = text.trimmed().toLower();
    if (t == QLatin1String("auto"))
        return automatic();
    if (t == QLatin1String("max"))
        return max();
    for (const QLatin1String unit : {QLatin1String("keys/s"), QLatin1String("/s")})
        if (t.endsWith(unit)) {
            t.chop(unit.size());
            t = t.trimmed();
            break;
        }
    qint64 scale = 1;
    if (t.endsWith(QLatin1Char('k')))
        scale = 1000;
    else if (t.endsWith(QLatin1Char('m')))
        scale = 1000000;
    if (scale > 1)
        t.chop(1);
    bool ok = false;
    const qint64 n = t.toLongLong(&ok);
    constexpr qint64 most = qint64(1) << 40;
    if (!ok || n <= 0 || n > most / scale)
        return RedisError(ErrorKind::InvalidArgument, QString(),
                          QStringLiteral("scan rate \"%1\": expected auto, max or a number of keys a second "
                                         "(e.g. 50000 or 50k)")
                              .arg(text.left(64)));
    return limit(n * scale);
}

QString ScanRate::toString() const
{
    switch (mode) {
    case Mode::Auto:
        return QStringLiteral("auto");
    case Mode::Max:
        return QStringLiteral("max");
    case Mode::Limit:
        break;
    }
    return QString::number(keysPerSecond);
}

} // namespace lockscope
