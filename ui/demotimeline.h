#pragma once

#include <QColor>
#include <QTimer>
#include <QWidget>

namespace lockscope {

class DemoSimulation;

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
    static QColor overlapColor() { return QColor(220, 30, 30); }

    void setSpanMs(qint64 ms);
    qint64 spanMs() const { return m_spanMs; }
    // Overlapping stretches drawn in the last paint, per lane: for tests.
    int overlapsDrawn() const { return m_overlapsDrawn; }
    int outagesDrawn() const { return m_outagesDrawn; }

    QSize sizeHint() const override { return {900, 300}; }
    // Modest, so that the demo fits a 1280x720 (logical) screen; the strips and lanes still read.
    QSize minimumSizeHint() const override { return {320, 180}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    DemoSimulation* m_sim;
    QTimer m_tick;
    qint64 m_spanMs = 60000;
    int m_overlapsDrawn = 0;
    int m_outagesDrawn = 0;
};

} // namespace lockscope
