// SPDX-License-Identifier: Apache-2.0
#include "config/scanpattern.h"

#include "base/bytesdisplay.h"

#include <QStringList>

namespace lockscope {

QString patternModeName(PatternMode mode)
{
    switch (mode) {
    case PatternMode::Locks:
        return QStringLiteral("locks");
    case PatternMode::Discover:
        return QStringLiteral("discover");
    case PatternMode::Fencing:
        return QStringLiteral("fencing");
    }
    return QStringLiteral("locks");
}

std::optional<PatternMode> patternModeFromName(const QString& name)
{
    if (name == QLatin1String("locks"))
        return PatternMode::Locks;
    if (name == QLatin1String("discover"))
        return PatternMode::Discover;
    if (name == QLatin1String("fencing"))
        return PatternMode::Fencing;
    return std::nullopt;
}

QList<ScanPattern> ScanPattern::defaults()
{
    // lock:* python-redis-lock and most hand-rolled locks, lock.* the SETNX recipe's lock.foo,
    // locks:*, *:lock and *.lock other hand-rolled layouts, redlock:* pottery, mutex:* and
    // semaphore:* redis-semaphore (../shared/reference/lock-formats.md).
    return {"lock:*",  "lock.*",      "locks:*",
            "*:lock",  "*.lock",      "redlock:*",
            "mutex:*", "semaphore:*", ScanPattern("*lock*", PatternMode::Discover)};
}

QString ScanPattern::toString() const
{
    const QString glob = escapeBytes(match);
    return mode == PatternMode::Locks ? glob : glob + QStringLiteral(" (%1)").arg(patternModeName(mode));
}

QString ScanPattern::listText(const QList<ScanPattern>& patterns)
{
    QStringList parts;
    for (const ScanPattern& p : patterns)
        parts << p.toString();
    return parts.join(QStringLiteral(", "));
}

} // namespace lockscope
