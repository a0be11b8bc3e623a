#include "discovery/notificationmode.h"

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

} // namespace lockscope
