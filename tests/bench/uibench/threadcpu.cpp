// SPDX-License-Identifier: Apache-2.0
#include "bench/uibench/threadcpu.h"

#include <QDir>
#include <QFile>
#include <QHash>

#include <unistd.h>

QJsonObject threadCpuMsByName()
{
    const qint64 ticksPerSecond = sysconf(_SC_CLK_TCK);
    const QString self = QString::number(getpid());
    QHash<QString, qint64> ms;
    const QStringList tasks =
        QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& tid : tasks) {
        QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
        if (!stat.open(QIODevice::ReadOnly))
            continue; // the thread ended meanwhile
        // "tid (name) state ...": the name may hold spaces and parentheses, the fields after the
        // last ")" do not; utime and stime are the 14th and 15th fields of the line.
        const QByteArray line = stat.readAll();
        const qsizetype open = line.indexOf('('), close = line.lastIndexOf(')');
        if (open < 0 || close < open)
            continue;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() < 13)
            continue;
        const QString name =
            tid == self ? QStringLiteral("gui") : QString::fromUtf8(line.mid(open + 1, close - open - 1));
        ms[name] += (fields.at(11).toLongLong() + fields.at(12).toLongLong()) * 1000 / ticksPerSecond;
    }
    QJsonObject out;
    for (auto it = ms.cbegin(); it != ms.cend(); ++it)
        out.insert(it.key(), it.value());
    return out;
}
