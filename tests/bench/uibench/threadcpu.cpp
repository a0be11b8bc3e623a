// SPDX-License-Identifier: Apache-2.0
#include "bench/uibench/threadcpu.h"

#include <QDir>
#include <QFile>
#include <QHash>

#include <unistd.h>

namespace {

struct StatLine
{
    QString name;
    qint64 cpuMs = -1; // -1: unreadable (gone meanwhile)
};

// A /proc stat file ("pid (name) state ..."): the name may hold spaces and parentheses, the fields
// after the last ")" do not; utime and stime are the 14th and 15th fields of the line.
StatLine readStat(const QString& path)
{
    QFile stat(path);
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = stat.readAll();
    const qsizetype open = line.indexOf('('), close = line.lastIndexOf(')');
    if (open < 0 || close < open)
        return {};
    const QList<QByteArray> fields = line.mid(close + 2).split(' ');
    if (fields.size() < 13)
        return {};
    static const qint64 ticksPerSecond = sysconf(_SC_CLK_TCK);
    return {QString::fromUtf8(line.mid(open + 1, close - open - 1)),
            (fields.at(11).toLongLong() + fields.at(12).toLongLong()) * 1000 / ticksPerSecond};
}

} // namespace

QJsonObject threadCpuMsByName()
{
    const QString self = QString::number(getpid());
    QHash<QString, qint64> ms;
    const QStringList tasks =
        QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& tid : tasks) {
        const StatLine stat = readStat(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
        if (stat.cpuMs < 0)
            continue; // the thread ended meanwhile
        ms[tid == self ? QStringLiteral("gui") : stat.name] += stat.cpuMs;
    }
    QJsonObject out;
    for (auto it = ms.cbegin(); it != ms.cend(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

qint64 processesCpuMs(const QList<qint64>& pids)
{
    qint64 total = 0;
    for (const qint64 pid : pids)
        total += qMax<qint64>(0, readStat(QStringLiteral("/proc/%1/stat").arg(pid)).cpuMs);
    return total;
}
