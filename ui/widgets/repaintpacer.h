// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QTimer>

class QWidget;

namespace lockscope {

// Repaints a widget at most once per interval while changes arrive in a burst. A table filling
// with 100k locks takes a slice of rows each turn of the event loop, and repainted after every one
// (ui-bench: 230 repaints of the visible rows before the first full view, four tenths of the GUI
// thread's time). Nobody reads rows that change 40 times a second; 10 frames a second show the fill
// as it goes, as Wireshark's packet list does during a capture.
//
// A change that comes an interval or more after the last one let through paints at once (a single
// lock taken or released shows within the event loop's turn, as before); the next ones within the
// interval hold the widget's updates (QWidget::setUpdatesEnabled) until it is up, and the widget
// is then painted whole, once. Other paints (a countdown's, the window's own) do not count; those
// asked for during a hold come with its one paint. Input on the widget (a key, a click, the wheel, a scroll)
// lets go at once and holds nothing for a while: what a user does paints at the screen's rate.
class RepaintPacer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepaintPacer)

public:
    RepaintPacer(QWidget* target, int intervalMs, QObject* parent = nullptr);

    // A change is about to reach the widget: within the interval of the last change let through, it
    // waits (and holds the widget's updates) until the interval is up.
    void pace();
    // Input: paint what waits now, and do not hold for the next moments.
    void interacted();
    bool isHolding() const { return m_release.isActive(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void release();

    QWidget* m_target;
    QTimer m_release;
    qint64 m_intervalNs;
    qint64 m_passedNs = -1;     // the last change let through (at once, or by a release), monotonic
    qint64 m_interactedNs = -1; // the last input on the widget
};

} // namespace lockscope
