// SPDX-License-Identifier: Apache-2.0
#include "window/panelsmenu.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QToolBar>

namespace lockscope {

PanelsMenu::PanelsMenu(QMainWindow* window, QMenu* menu, QAction* anchor)
    : QObject(menu), m_window(window), m_menu(menu), m_anchor(anchor)
{
    connect(menu, &QMenu::aboutToShow, this, &PanelsMenu::rebuild);
    rebuild();
}

void PanelsMenu::rebuild()
{
    for (const QPointer<QAction>& a : std::as_const(m_listed))
        if (a)
            m_menu->removeAction(a);
    m_listed.clear();
    QList<QAction*> toggles;
    // Only the window's own docks and toolbars, not those of a dialog it owns.
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        toggles << dock->toggleViewAction();
    QList<QAction*> bars;
    for (QToolBar* bar : m_window->findChildren<QToolBar*>(Qt::FindDirectChildrenOnly)) {
        QAction* toggle = bar->toggleViewAction();
        toggle->setText(tr("%1 toolbar").arg(bar->windowTitle()));
        bars << toggle;
    }
    toggles << bars;
    for (QAction* a : std::as_const(toggles)) {
        m_menu->insertAction(m_anchor, a);
        m_listed << a;
    }
}

} // namespace lockscope
