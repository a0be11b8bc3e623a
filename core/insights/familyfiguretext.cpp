// SPDX-License-Identifier: Apache-2.0
#include "insights/familyfiguretext.h"

#include "base/durationformat.h"
#include "insights/familyfigures.h"

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

} // namespace lockscope
