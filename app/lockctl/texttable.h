#pragma once

#include <QStringList>
#include <QTextStream>

namespace lockctl {

// Left-aligned columns sized to their widest cell, for output a person reads at a glance.
class TextTable
{
public:
    explicit TextTable(QStringList header) : m_rows{std::move(header)} {}
    void add(QStringList row) { m_rows << std::move(row); }
    void print(QTextStream& out) const;

private:
    QList<QStringList> m_rows;
};

// "9.8s", "2m03s", "1h05m", or "no expiry" for a negative value.
QString formatDuration(qint64 ms);

} // namespace lockctl
