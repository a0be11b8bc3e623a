// SPDX-License-Identifier: Apache-2.0
#include "base/localidentity.h"

#include <QCoreApplication>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

namespace lockscope {

QString LocalIdentity::user()
{
    // The password database first: $USER is whatever the caller's environment claims.
    if (const passwd* entry = getpwuid(geteuid()); entry && entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    const QString fromEnv = qEnvironmentVariable("USER");
    return fromEnv.isEmpty() ? QStringLiteral("uid%1").arg(geteuid()) : fromEnv;
}

QString LocalIdentity::host()
{
    return QSysInfo::machineHostName();
}

qint64 LocalIdentity::pid()
{
    return QCoreApplication::applicationPid();
}

QString LocalIdentity::ownerTag()
{
    return QStringLiteral("%1@%2:%3").arg(user(), host()).arg(pid());
}

} // namespace lockscope
