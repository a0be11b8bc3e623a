// SPDX-License-Identifier: Apache-2.0
#include "base/durationformat.h"

#include <QCoreApplication>

namespace lockscope {

namespace {

// The units of one style, as QString::arg() patterns.
struct DurationUnits
{
    const char* seconds;
    const char* minutesSeconds;
    const char* hoursMinutes;
    const char* daysHours; // null: hours go on past a day
};

constexpr DurationUnits spacedUnits{
    QT_TRANSLATE_NOOP("DurationText", "%1 s"), QT_TRANSLATE_NOOP("DurationText", "%1 m %2 s"),
    QT_TRANSLATE_NOOP("DurationText", "%1 h %2 m"), QT_TRANSLATE_NOOP("DurationText", "%1 d %2 h")};
constexpr DurationUnits compactUnits{"%1s", "%1m%2s", "%1h%2m", nullptr};

} // namespace

QString formatDuration(qint64 ms, DurationStyle style)
{
    if (ms < 0)
        return QString();
    if (style == DurationStyle::CompactMilliseconds && ms < 1000)
        return QStringLiteral("%1ms").arg(ms);
    const DurationUnits& units = style == DurationStyle::Spaced ? spacedUnits : compactUnits;
    const auto pattern = [](const char* text) { return QCoreApplication::translate("DurationText", text); };
    if (ms < 60000)
        return pattern(units.seconds).arg(double(ms) / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    if (s < 3600)
        return pattern(units.minutesSeconds).arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    if (s < 86400 || !units.daysHours)
        return pattern(units.hoursMinutes).arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return pattern(units.daysHours).arg(s / 86400).arg((s % 86400) / 3600);
}

} // namespace lockscope
