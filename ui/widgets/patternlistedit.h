// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace lockscope {

// A connection profile's scan patterns: one row per glob, with its mode (every key is a lock, or
// find the locks among the keys). Empty means the patterns LockScope was started with (the
// --config file's, or the defaults).
class PatternListEdit final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PatternListEdit)

public:
    explicit PatternListEdit(QWidget* parent = nullptr);

    // Rows with an empty glob are left out.
    QList<ScanPattern> patterns() const;
    void setPatterns(const QList<ScanPattern>& patterns);

    QTableWidget* table() const { return m_table; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* removeButton() const { return m_remove; }
    // Appends a row (the Add button does it with an empty glob, ready to type).
    void addPattern(const ScanPattern& pattern);

signals:
    void changed();

private:
    void appendRow(const ScanPattern& pattern);
    void setModeCell(int row, PatternMode mode);

    QTableWidget* m_table;
    QPushButton* m_add;
    QPushButton* m_remove;
    QLabel* m_note;
    bool m_filling = false;
};

} // namespace lockscope
