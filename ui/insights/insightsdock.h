// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace lockscope {

class InsightsCharts;
class InsightsModel;

// The Insights dock (docs/manual/insights.md): how each family of locks behaves, from the
// recording. A table of families, riskiest first, and for the selected one its charts; above them
// the span read ("Over") and a Refresh button. It only shows: the passes over the recording are
// WindowInsights' (off the GUI thread).
class InsightsDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InsightsDock)

public:
    InsightsDock(InsightsModel* families, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    InsightsCharts* charts() const { return m_charts; }
    QComboBox* since() const { return m_since; }
    QToolButton* refreshButton() const { return m_refresh; }
    // The span chosen in "Over", in ms before now; -1 for the whole recording.
    qint64 sinceSpanMs() const;
    // What the last pass read (or why there is nothing), under the table's controls.
    void setStatus(const QString& text);
    // Why the table is empty.
    void setEmptyText(const QString& text);
    // The family shown in the charts; empty when none is selected.
    QByteArray selectedFamily() const;

signals:
    void refreshRequested();

private:
    void showWhatThereIs();
    void showSelected();

    InsightsModel* m_families;
    QComboBox* m_since;
    QToolButton* m_refresh;
    QLabel* m_status;
    QStackedWidget* m_pages;
    QLabel* m_empty;
    QSplitter* m_split;
    QTableView* m_view;
    InsightsCharts* m_charts;
    QByteArray m_selected; // kept across a refresh that lists the families anew
};

} // namespace lockscope
