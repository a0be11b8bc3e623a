// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QLabel;
class QStackedWidget;
class QTableView;

namespace lockscope {

class IncidentsModel;

// The Incidents dock: each time a lock let two holders in at once (docs/manual/two-holders.md),
// with its confidence, kind, lock, both holders and cause; the evidence in each row's tooltip.
// Activating a row asks the window to show that lock's history. Empty, it says what it needs.
class IncidentsDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IncidentsDock)

public:
    IncidentsDock(IncidentsModel* incidents, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    // Why the list may be empty: recording on or off, or a review's pass still under way.
    void setEmptyText(const QString& text);

signals:
    void lockChosen(const QByteArray& resource);

private:
    void showWhatThereIs();

    IncidentsModel* m_incidents;
    QStackedWidget* m_pages;
    QLabel* m_empty;
    QTableView* m_view;
};

} // namespace lockscope
