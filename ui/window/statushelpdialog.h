// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QTableWidget;

namespace lockscope {

// Help > What each status means: every status with its icon, what it means and what to do, from
// the same texts the window shows in tooltips and the detail pane (StatusStyle), which are also
// the manual's table (docs/manual/statuses.md).
class StatusHelpDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatusHelpDialog)

public:
    explicit StatusHelpDialog(QWidget* parent = nullptr);

    enum Column
    {
        StatusColumn,
        MeaningColumn,
        AdviceColumn,
        ColumnCount
    };
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
};

} // namespace lockscope
