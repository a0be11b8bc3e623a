// SPDX-License-Identifier: Apache-2.0
#include "lockctl/texttable.h"

namespace lockctl {

QList<qsizetype> TextTable::print(QTextStream& out, const Painter& paint) const
{
    QList<qsizetype> widths;
    for (const QStringList& row : m_rows)
        for (qsizetype c = 0; c < row.size(); ++c) {
            if (widths.size() <= c)
                widths << 0;
            widths[c] = qMax(widths[c], row[c].size());
        }
    for (qsizetype r = 0; r < m_rows.size(); ++r)
        printRow(
            out, m_rows[r], widths,
            paint ? CellPainter([&paint, r](qsizetype c, const QString& cell) { return paint(r, c, cell); })
                  : CellPainter());
    out.flush();
    return widths;
}

void TextTable::printRow(QTextStream& out, const QStringList& row, const QList<qsizetype>& widths,
                         const CellPainter& paint)
{
    QString line;
    for (qsizetype c = 0; c < row.size(); ++c) {
        line += paint ? paint(c, row[c]) : row[c];
        if (c + 1 < row.size())
            line += QString(qMax<qsizetype>(2, widths.value(c) + 2 - row[c].size()), QLatin1Char(' '));
    }
    out << line << '\n';
}

} // namespace lockctl
