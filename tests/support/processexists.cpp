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
    const char state = processState(pid);
    return state != 0 && state != 'Z';
}

char processState(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')'); // the name in parentheses may hold anything
    return close > 0 && close + 2 < line.size() ? line.at(close + 2) : 0;
}

} // namespace lockscope::test
