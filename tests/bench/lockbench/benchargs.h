// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>

namespace lockbench {

// Tiny "--name value" reader shared by the benchmarks (they take few, simple options).
class BenchArgs
{
public:
    explicit BenchArgs(const QStringList& args) : m_args(args) {}
    QStringList values(const QString& name) const;
    QString value(const QString& name, const QString& fallback = QString()) const;
    qint64 number(const QString& name, qint64 fallback) const;
    bool flag(const QString& name) const { return m_args.contains(name); }

private:
    QStringList m_args;
};

// Peak resident set size of this process, in MiB.
double peakRssMiB();

} // namespace lockbench
