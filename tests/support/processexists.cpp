// SPDX-License-Identifier: Apache-2.0
#include "support/processexists.h"

#include <QByteArray>
#include <QFile>

#include <csignal>

namespace lockscope::test {

bool processExists(qint64 pid)
{
    if (::kill(pid_t(pid), 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close > 0 && line.mid(close + 2, 1) != "Z";
}

} // namespace lockscope::test
