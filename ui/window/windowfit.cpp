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
    // The frame is (or will be) around the client area, geometry(): before the window manager has
    // framed a window, pos() is no frame corner, and a restored geometry at y = 0 put the title bar
    // above the screen's top edge from the second launch on.
    const QRect outer = QRect(window->geometry().topLeft(), size).marginsAdded(frame);
    if (available.contains(outer))
        return;
    QPoint corner = outer.topLeft();
    corner.setX(
        qBound(available.left(), corner.x(), qMax(available.left(), available.right() + 1 - outer.width())));
    corner.setY(
        qBound(available.top(), corner.y(), qMax(available.top(), available.bottom() + 1 - outer.height())));
    // Placed by its client area, with the frame's room above and left of it, whether or not the
    // window manager honours a frame position.
    window->setGeometry(QRect(corner + QPoint(frame.left(), frame.top()), size));
}

bool WindowFit::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Show && watched == parent())
        fit(static_cast<QWidget*>(watched));
    return QObject::eventFilter(watched, event);
}

} // namespace lockscope
