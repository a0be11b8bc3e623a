// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QTreeView;

namespace lockscope {

class MasterTableModel;

// The Masters dock: one row per master (a cluster's or a Sentinel group's nodes under it), with a
// context menu to copy its address or URL and to turn on keyspace events for it.
class MastersDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MastersDock)

public:
    MastersDock(MasterTableModel* masters, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    // Read-only sessions offer no write in the context menu.
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    // The masters that answer but only poll (narrowed to the one picked here, if any and asked).
    QList<int> pollingMasters(bool preferPicked) const;

signals:
    void enableKeyspaceEventsRequested(const QList<int>& masters);

private:
    void showContextMenu(const QPoint& pos);

    MasterTableModel* m_masters;
    QTreeView* m_view;
    bool m_readOnly = false;
};

} // namespace lockscope
