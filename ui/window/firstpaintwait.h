// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <utility>

class QWidget;

namespace lockscope {

// Holds work back until a window has been painted for the first time. The first paint (layouts,
// glyphs, a backing store faulted in) takes 20 to 40 ms of the GUI thread; done beside five masters'
// first scans at full speed it waited for a core, and the window stood blank and frozen for up to
// 80 ms. The wait is over at once for a window that is not shown when the event loop first turns
// (a test's, or one shown later), and after holdLimitMs for one that is never painted (not exposed).
class FirstPaintWait final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FirstPaintWait)

public:
    static constexpr int holdLimitMs = 300;

    explicit FirstPaintWait(QWidget* window, int limitMs = holdLimitMs);

    bool isOver() const { return m_over; }
    // Runs `work` once the wait is over (now if it is), unless `context` is gone by then.
    void then(QObject* context, std::function<void()> work);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void finish();

    QWidget* m_window;
    bool m_over = false;
    QTimer m_limit;
    QList<std::pair<QPointer<QObject>, std::function<void()>>> m_waiting;
};

} // namespace lockscope
