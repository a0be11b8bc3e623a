// SPDX-License-Identifier: Apache-2.0
#include "window/windowfit.h"

#include <QEvent>
#include <QGuiApplication>
#include <QScreen>
#include <QStyle>
#include <QWidget>
#include <QWindow>

namespace lockscope {

namespace {

// The frame a window manager will add: the real one once the window has it, otherwise a title bar
// and thin borders as most desktops draw them.
QMargins frameOf(QWidget* window)
{
    const QRect frame = window->frameGeometry();
    const QRect inner = window->geometry();
    if (window->isVisible() && frame != inner)
        return {inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                frame.bottom() - inner.bottom()};
    const int border = 4;
    const int title = window->style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, window);
    return {border, title + border, border, border};
}

QScreen* screenOf(QWidget* window)
{
    if (QScreen* s = QGuiApplication::screenAt(window->frameGeometry().center()))
        return s;
    if (QScreen* s = window->screen())
        return s;
    return QGuiApplication::primaryScreen();
}

} // namespace

WindowFit::WindowFit(QWidget* window) : QObject(window) {}

void WindowFit::keepOnScreen(QWidget* window)
{
    if (!window->findChild<WindowFit*>(QString(), Qt::FindDirectChildrenOnly))
        window->installEventFilter(new WindowFit(window));
    fit(window);
}

void WindowFit::fit(QWidget* window)
{
    if (window->isMaximized() || window->isFullScreen())
        return;
    QScreen* screen = screenOf(window);
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    const QMargins frame = frameOf(window);
    const QSize room(available.width() - frame.left() - frame.right(),
                     available.height() - frame.top() - frame.bottom());
    const QSize size = window->size().boundedTo(room).expandedTo(window->minimumSize());
    if (size != window->size())
        window->resize(size);
    // Then the frame, whole, onto the screen: pos() is the frame's corner for a window.
    const QSize outer(size.width() + frame.left() + frame.right(),
                      size.height() + frame.top() + frame.bottom());
    if (available.contains(QRect(window->pos(), outer)))
        return;
    QPoint pos = window->pos();
    pos.setX(
        qBound(available.left(), pos.x(), qMax(available.left(), available.right() + 1 - outer.width())));
    pos.setY(
        qBound(available.top(), pos.y(), qMax(available.top(), available.bottom() + 1 - outer.height())));
    window->move(pos);
}

bool WindowFit::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Show && watched == parent())
        fit(static_cast<QWidget*>(watched));
    return QObject::eventFilter(watched, event);
}

} // namespace lockscope
