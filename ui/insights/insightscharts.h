// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTabWidget>

class QChart;
class QChartView;

namespace lockscope {

struct FamilyFigures;

// The pictures of the family selected in Insights (Qt Charts): its hold times as a histogram with
// the lease and the p99 drawn as lines, its acquisitions and endings over time, its handover gaps.
// Each tab is one chart, redrawn whole when the family changes (at most a few hundred points).
class InsightsCharts final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InsightsCharts)

public:
    enum Tab
    {
        Holds,
        Activity,
        Handovers
    };

    explicit InsightsCharts(QWidget* parent = nullptr);

    // `family` (with its pictures), or nothing selected (null).
    void show(const FamilyFigures* family);
    QChart* chart(Tab tab) const;

private:
    void showHolds(const FamilyFigures& f);
    void showActivity(const FamilyFigures& f);
    void showHandovers(const FamilyFigures& f);
    // Empties `tab`'s chart and gives it `title`.
    QChart* restart(Tab tab, const QString& title);

    QChartView* m_views[3];
};

} // namespace lockscope
