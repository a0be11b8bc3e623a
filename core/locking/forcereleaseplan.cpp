// SPDX-License-Identifier: Apache-2.0
#include "locking/forcereleaseplan.h"

#include "base/bytesdisplay.h"

namespace lockscope {

QString ForceReleaseStep::summary() const
{
    switch (kind) {
    case Kind::Nothing:
        return QStringLiteral("nothing (%1)").arg(why);
    case Kind::Spare:
        return QStringLiteral("spare: %1").arg(why);
    case Kind::Refuse:
        return QStringLiteral("refuse: %1").arg(why);
    case Kind::Delete:
    case Kind::RemoveHolders:
        break;
    }
    QStringList parts;
    for (const auto& [id, count] : removedHolders)
        parts << (count > 1
                      ? QStringLiteral("remove holder %1 (entered %2 times)").arg(escapeBytes(id)).arg(count)
                      : QStringLiteral("remove holder %1").arg(escapeBytes(id)));
    if (!leaseKeys.isEmpty())
        parts << QStringLiteral("delete %1 reader lease key(s)").arg(leaseKeys.size());
    for (const Command& c : commands) {
        if (c.first() == "DEL" && c.size() == 2 && !leaseKeys.contains(c.at(1)))
            parts << QStringLiteral("delete the key");
        else if (c.first() == "PUBLISH" || c.first() == "SPUBLISH")
            parts << QStringLiteral("wake its waiters: PUBLISH %1 on %2")
                         .arg(escapeBytes(c.at(2)), escapeBytes(c.at(1)));
        else if (c.first() == "LPUSH")
            parts << QStringLiteral("wake its waiters: LPUSH 1 on %1").arg(escapeBytes(c.at(1)));
        else if (c.first() == "HSET")
            parts << QStringLiteral("back to read mode");
        else if (c.first() == "ZREM")
            parts << QStringLiteral("remove member %1").arg(escapeBytes(c.at(2)));
    }
    if (kind == Kind::RemoveHolders && !removedHolders.isEmpty())
        parts << QStringLiteral("the key stays for %1 other holder(s)").arg(holdersLeft);
    if (!removedHolders.isEmpty())
        parts << QStringLiteral("nothing at all if the lock has changed so that these steps would differ");
    QString text = parts.join(QStringLiteral("; "));
    if (!condition.isEmpty())
        text += QStringLiteral(", ") + condition;
    return text;
}

} // namespace lockscope
