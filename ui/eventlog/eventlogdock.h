// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QTableView;

namespace lockscope {

class EventLogModel;

// The Event log dock: the log's entries in a table that follows the newest one while the reader
// is at the bottom, and stays put while they read older ones.
class EventLogDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogDock)

public:
    EventLogDock(EventLogModel* events, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }

private:
    QTableView* m_view;
};

} // namespace lockscope
