// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QTextStream>

#include <functional>

namespace lockctl {

// Left-aligned columns sized to their widest cell, for output a person reads at a glance.
class TextTable
{
public:
    explicit TextTable(QStringList header) : m_rows{std::move(header)} {}
    void add(QStringList row) { m_rows << std::move(row); }
    // `paint` may decorate a cell (row 0 is the header) with what takes no columns on a terminal
    // (colour); the widths stay those of the plain text.
    using Painter = std::function<QString(qsizetype row, qsizetype column, const QString& cell)>;
    // Returns the column widths, for rows printed later in the same columns (printRow).
    QList<qsizetype> print(QTextStream& out, const Painter& paint = {}) const;
    // One more row under a printed table: its columns start where the table's did (a cell wider than
    // its column pushes the rest of its row right, keeping two spaces).
    using CellPainter = std::function<QString(qsizetype column, const QString& cell)>;
    static void printRow(QTextStream& out, const QStringList& row, const QList<qsizetype>& widths,
                         const CellPainter& paint = {});

private:
    QList<QStringList> m_rows;
};

} // namespace lockctl
