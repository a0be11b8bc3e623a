// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/benchargs.h"

#include <sys/resource.h>

namespace lockbench {

QStringList BenchArgs::values(const QString& name) const
{
    QStringList out;
    for (qsizetype i = 0; i + 1 < m_args.size(); ++i)
        if (m_args[i] == name)
            out << m_args[i + 1];
    return out;
}

QString BenchArgs::value(const QString& name, const QString& fallback) const
{
    const QStringList all = values(name);
    return all.isEmpty() ? fallback : all.last();
}

qint64 BenchArgs::number(const QString& name, qint64 fallback) const
{
    bool ok = false;
    const qint64 v = value(name).toLongLong(&ok);
    return ok ? v : fallback;
}

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

} // namespace lockbench
