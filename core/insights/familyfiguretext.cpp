// SPDX-License-Identifier: Apache-2.0
#include "insights/familyfiguretext.h"

#include "base/durationformat.h"
#include "insights/familyfigures.h"

#include <QStringList>

namespace lockscope {

QString FamilyFigureText::duration(qint64 ms)
{
    return ms < 0 ? QStringLiteral("-") : formatDuration(ms, DurationStyle::CompactMilliseconds);
}

QString FamilyFigureText::perMinute(const FamilyFigures& f)
{
    return QString::number(f.acquisitionsPerMinute, 'f', f.acquisitionsPerMinute < 10 ? 1 : 0);
}

QString FamilyFigureText::headroom(const FamilyFigures& f)
{
    return f.headroom < 0 ? QStringLiteral("-") : QString::number(f.headroom, 'f', 2);
}

QString FamilyFigureText::expiredShare(const FamilyFigures& f)
{
    if (f.expiredShare < 0)
        return QStringLiteral("-");
    return QString::number(f.expiredShare * 100, 'f', f.expiredShare < 0.1 ? 1 : 0) + QLatin1Char('%');
}

QString FamilyFigureText::contention(const FamilyFigures& f)
{
    QStringList parts;
    if (f.peakWaiters >= 0)
        parts << QStringLiteral("%1 waiting").arg(f.peakWaiters);
    if (f.refusedAttempts >= 0)
        parts << QStringLiteral("%1 refused").arg(f.refusedAttempts);
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral(", "));
}

QString FamilyFigureText::contentionSentence(const FamilyFigures& f)
{
    QStringList parts;
    if (f.peakWaiters >= 0) {
        parts << QStringLiteral("%1 waiting at most").arg(f.peakWaiters);
        if (f.longestFreeWhileWaitingMs >= 0)
            parts << QStringLiteral("free up to %1 while waited for")
                         .arg(duration(f.longestFreeWhileWaitingMs));
    }
    if (f.refusedAttempts >= 0)
        parts << QStringLiteral("%1 refused while traced").arg(f.refusedAttempts);
    return parts.join(QStringLiteral("; "));
}

} // namespace lockscope
