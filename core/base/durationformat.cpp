#include "base/durationformat.h"

#include <QCoreApplication>

namespace lockscope {

QString formatDuration(qint64 ms)
{
    if (ms < 0)
        return QString();
    if (ms < 60000)
        return QCoreApplication::translate("DurationText", "%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    if (s < 3600)
        return QCoreApplication::translate("DurationText", "%1 m %2 s")
            .arg(s / 60)
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    if (s < 86400)
        return QCoreApplication::translate("DurationText", "%1 h %2 m")
            .arg(s / 3600)
            .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return QCoreApplication::translate("DurationText", "%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

} // namespace lockscope
