// SPDX-License-Identifier: Apache-2.0
#include "discovery/notificationmode.h"

#include "base/bytesdisplay.h"
#include "connection/redisreply.h"

namespace lockscope {

namespace {
const QByteArray needed = "g$hzx";
}

QString notificationModeName(NotificationMode mode)
{
    switch (mode) {
    case NotificationMode::Unknown:
        return QStringLiteral("unknown");
    case NotificationMode::Live:
        return QStringLiteral("live");
    case NotificationMode::Polling:
        return QStringLiteral("polling");
    }
    return {};
}

bool notificationFlagsSuffice(const QByteArray& flags)
{
    if (!flags.contains('K'))
        return false;
    if (flags.contains('A'))
        return true;
    for (char c : needed)
        if (!flags.contains(c))
            return false;
    return true;
}

QByteArray notificationFlagsWithNeeded(const QByteArray& flags)
{
    QByteArray out = flags;
    const QByteArray wanted = QByteArray("K") + needed;
    for (char c : wanted)
        if (!out.contains(c) && !(c != 'K' && out.contains('A')))
            out.append(c);
    return out;
}

QString notificationConfigProblem(const RedisReply& reply)
{
    if (reply.isError())
        return QStringLiteral("cannot read notify-keyspace-events (%1)").arg(escapeBytes(reply.string));
    const QByteArray flags = reply.elements.size() == 2 ? reply.elements[1].string : QByteArray();
    if (notificationFlagsSuffice(flags))
        return QString();
    return flags.isEmpty()
               ? QStringLiteral("keyspace notifications are off")
               : QStringLiteral("notify-keyspace-events is \"%1\"; LockScope needs K and A (or g$hzx)")
                     .arg(escapeBytes(flags));
}

} // namespace lockscope
