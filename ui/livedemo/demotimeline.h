// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "widgets/statusstyle.h"

#include <QColor>
#include <QFont>
#include <QTimer>
#include <QWidget>

class QPainter;

namespace lockscope {

class DemoSimulation;
struct DemoHold;

// The demo's timeline: a strip per master with its outages (killed, paused), then one lane per
// resource with a bar for each client's hold, coloured by client; wherever two clients held the same
// resource at once, that stretch is drawn in red. The last minute, scrolling.
class DemoTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoTimeline)

public:
    explicit DemoTimeline(DemoSimulation* simulation, QWidget* parent = nullptr);

    static QColor clientColor(int client);
    static QColor overlapColor() { return StatusStyle::overlapColor(); }

    void setSpanMs(qint64 ms);
    qint64 spanMs() const { return m_spanMs; }
    // Overlapping stretches drawn in the last paint, per lane: for tests.
    int overlapsDrawn() const { return m_overlapsDrawn; }
    int outagesDrawn() const { return m_outagesDrawn; }
    // Gaps between one holder's end and the next one's start too narrow to see at this span (the
    // clock-drift allowance: tens of ms in a minute), drawn wider and labelled, in the last paint.
    int gapsMarked() const { return m_gapsMarked; }
    // Where the last paint put its legend: always inside the widget, wrapped to its width.
    QRect legendRect() const { return m_legendRect; }

    QSize sizeHint() const override { return {900, 300}; }
    // Modest, so that the demo fits a 1280x720 (logical) screen; the strips and lanes still read.
    QSize minimumSizeHint() const override { return {320, 180}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    // What every step of one paint shares: the time window and its mapping to x, the colours.
    struct Frame
    {
        qint64 now = 0;
        qint64 from = 0; // the window's left edge, now - span
        int left = 0;    // x where the time axis starts (the labels are left of it)
        int width = 1;   // of the time axis, in pixels
        QColor text;
        QColor faint;
        QFont small;
        int laneHeight = 24; // fitted to the height: the axis and legend stay in view
        int x(qint64 t) const;
    };

    // Each step paints from `y` down and returns the y below what it painted.
    int paintMasters(QPainter& p, const Frame& f, int y);
    int paintLanes(QPainter& p, const Frame& f, int y);
    void paintOverlaps(QPainter& p, const Frame& f, const QList<const DemoHold*>& inLane, const QRect& row);
    void shadeOutages(QPainter& p, const Frame& f, int lanesTop, int lanesBottom) const;
    int paintAxis(QPainter& p, const Frame& f, int y) const;
    // Returns the height it took (keys wrap to the width); `dryRun`: measure only.
    int paintLegend(QPainter& p, const Frame& f, int y, bool dryRun);
    void markGaps(QPainter& p, const Frame& f, const QList<const DemoHold*>& inLane, const QRect& row);

    DemoSimulation* m_sim;
    QTimer m_tick;
    qint64 m_spanMs = 60000;
    int m_overlapsDrawn = 0;
    int m_outagesDrawn = 0;
    int m_gapsMarked = 0;
    QRect m_legendRect;
};

} // namespace lockscope
