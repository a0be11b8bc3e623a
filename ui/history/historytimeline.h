// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"
#include "session/watchgap.h"

#include <QWidget>

namespace lockscope {

// The holders of one resource along a time axis: one bar per holder in its token's colour (the
// quorum diagram's), from when it appeared to when it went, and how it ended written at the end of
// the bar. Stretches nobody recorded are hatched gaps; master restarts, failovers, outages and
// at-risk marks are ticks across the bars (their words in the tooltip). The wheel zooms around the pointer,
// Shift+wheel and dragging scroll; +, - and the arrow keys do the same, Home shows everything.
class HistoryTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryTimeline)

public:
    explicit HistoryTimeline(QWidget* parent = nullptr);

    // `since`: where the axis starts at the least (the window's opening, for what it saw itself).
    // `recordedUntil`: the last moment a reviewed recording watched (invalid: still recording).
    void setEpisodes(const QByteArray& resource, const QList<Episode>& episodes, const QDateTime& since,
                     const QList<WatchGap>& gaps = {}, const QDateTime& recordedUntil = {});
    const QByteArray& resource() const { return m_resource; }
    const QList<Episode>& episodes() const { return m_episodes; }
    // How an episode ended, in words, as written at the end of its bar ("held" while open).
    static QString endText(Episode::End end);
    // Where an episode's bar ends: its end, or for one still open where the recording stopped, or
    // now while it is being recorded.
    qint64 barEndMs(const Episode& episode, qint64 nowMs) const;
    const QList<WatchGap>& gaps() const { return m_gaps; }
    // The recording's events of this resource and its masters: the ones that are marks are kept
    // (what `lockctl history` lists besides the holders).
    void setEvents(const QList<HistoryEvent>& events);
    const QList<HistoryEvent>& marks() const { return m_marks; }
    static bool isMark(RecordEvent::Kind kind);
    // Stretches where two holders' bars overlapped in the last paint (two tokens at once): for tests.
    int overlapsDrawn() const { return m_overlapsDrawn; }
    // "M2 restarted: run_id a1… → 9c…", as the tooltip says it.
    static QString markText(const HistoryEvent& mark);
    // A bar's tooltip: its token and owner, from when to when, how it ended, its masters.
    static QString barText(const Episode& episode);

    // Zoom by `factor` (>1: closer) around the point `at` (0..1 across the axis).
    void zoom(double factor, double at = 0.5);
    // Scroll by a fraction of the visible span (negative: back in time).
    void scroll(double fraction);
    void showAll();
    // The time span on screen.
    QPair<QDateTime, QDateTime> visibleRange() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    QPair<qint64, qint64> fullRange() const; // ms since the epoch
    QRectF area() const;
    qreal xAt(qint64 ms) const; // unbounded: a pointer may be anywhere

    QByteArray m_resource;
    QList<Episode> m_episodes;
    QList<WatchGap> m_gaps;
    QList<HistoryEvent> m_marks;
    QDateTime m_since;
    QDateTime m_recordedUntil;
    // The view: 0 = all of it, following now; otherwise the span shown and its end.
    qint64 m_viewSpanMs = 0;
    qint64 m_viewEndMs = 0;
    int m_dragX = -1;
    int m_overlapsDrawn = 0;
    QList<QPair<QRectF, Episode>> m_bars; // as last painted: what the pointer is over
};

} // namespace lockscope
