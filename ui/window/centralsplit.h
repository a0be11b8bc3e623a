// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSplitter>

namespace lockscope {

class EmptyState;
class LockDetailPane;
class LockFilterBar;
class LockFilterProxy;
class LockTableView;

// The window's centre: the filter bar and the locks table (or, with nothing to watch, the empty
// state's buttons) above the selected lock's detail pane.
class CentralSplit final : public QSplitter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CentralSplit)

public:
    CentralSplit(LockFilterProxy* proxy, QWidget* parent = nullptr);

    LockTableView* table() const { return m_table; }
    LockFilterBar* filterBar() const { return m_filterBar; }
    EmptyState* emptyState() const { return m_emptyState; }
    LockDetailPane* detail() const { return m_detail; }
    // No master configured: what to do next instead of an empty table.
    void setNothingToWatch(bool empty);
    // The table takes most of the height, as on first start.
    void resetSizes() { setSizes({700, 300}); }

private:
    LockTableView* m_table;
    LockFilterBar* m_filterBar;
    EmptyState* m_emptyState;
    LockDetailPane* m_detail;
};

} // namespace lockscope
