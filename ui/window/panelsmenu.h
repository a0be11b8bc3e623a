// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QMenu;

namespace lockscope {

// The View menu's list of the window's docks and toolbars, each with its show/hide toggle, so that
// a closed one can be brought back. Rebuilt each time the menu opens: a dock added later (the
// demo's) is listed too.
class PanelsMenu final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PanelsMenu)

public:
    // The toggles go into `menu` just before `anchor` (an action already in the menu).
    PanelsMenu(QMainWindow* window, QMenu* menu, QAction* anchor);

    void rebuild();

private:
    QMainWindow* m_window;
    QMenu* m_menu;
    QAction* m_anchor;
    QList<QPointer<QAction>> m_listed;
};

} // namespace lockscope
