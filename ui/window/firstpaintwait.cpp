// SPDX-License-Identifier: Apache-2.0
#include "window/firstpaintwait.h"

#include <QEvent>
#include <QWidget>

namespace lockscope {

FirstPaintWait::FirstPaintWait(QWidget* window, int limitMs) : QObject(window), m_window(window)
{
    m_window->installEventFilter(this);
    m_limit.setSingleShot(true);
    connect(&m_limit, &QTimer::timeout, this, &FirstPaintWait::finish);
    QTimer::singleShot(0, this, [this, limitMs] {
        if (m_over)
            return;
        if (!m_window->isVisible())
            finish();
        else
            m_limit.start(limitMs);
    });
}

void FirstPaintWait::then(QObject* context, std::function<void()> work)
{
    if (m_over)
        work();
    else
        m_waiting.append({context, std::move(work)});
}

bool FirstPaintWait::eventFilter(QObject* watched, QEvent* event)
{
    // The window's own paint event comes first in the paint of the whole window: the work waits
    // for the next turn of the event loop, after the children have been painted and shown.
    if (watched == m_window && event->type() == QEvent::Paint && !m_over) {
        m_window->removeEventFilter(this);
        QTimer::singleShot(0, this, &FirstPaintWait::finish);
    }
    return QObject::eventFilter(watched, event);
}

void FirstPaintWait::finish()
{
    if (m_over)
        return;
    m_over = true;
    m_limit.stop();
    m_window->removeEventFilter(this);
    for (auto& [context, work] : std::exchange(m_waiting, {}))
        if (context)
            work();
}

} // namespace lockscope
