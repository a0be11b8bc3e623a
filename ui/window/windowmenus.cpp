// SPDX-License-Identifier: Apache-2.0
#include "window/windowmenus.h"

#include "locks/lockfilterbar.h"
#include "window/panelsmenu.h"
#include "window/windowactions.h"

#include <QAction>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <QToolButton>

namespace lockscope {

namespace WindowMenus {

namespace {

// The words keep the translation context the class gave them.
QString tr(const char* text)
{
    return QCoreApplication::translate("WindowMenus", text);
}

// The quick filters, with shortcuts, checked as their buttons are.
QMenu* addFilterMenu(QMenuBar* bar, const WindowActions& actions, LockFilterBar* filterBar)
{
    QMenu* filter = bar->addMenu(tr("Fi&lter"));
    actions.focusFilter->setText(tr("&Filter by text…"));
    filter->addAction(actions.focusFilter);
    filter->addSeparator();
    int key = 1;
    for (QToolButton* button : filterBar->quickButtons()) {
        QAction* a = filter->addAction(button->text());
        a->setCheckable(true);
        a->setToolTip(button->toolTip());
        a->setShortcut(QKeySequence(tr("Ctrl+%1").arg(key++)));
        a->setProperty("quickFilter", button->property("quickFilter"));
        QObject::connect(a, &QAction::toggled, button, &QToolButton::setChecked);
        QObject::connect(button, &QToolButton::toggled, a, &QAction::setChecked);
    }
    filter->addSeparator();
    filter->addAction(tr("&Show all"), QKeySequence(tr("Ctrl+0")), filterBar, &LockFilterBar::showAll);
    return filter;
}

void addToolBar(QMainWindow* window, const WindowActions& actions)
{
    QToolBar* bar = window->addToolBar(tr("Actions"));
    bar->setObjectName(QStringLiteral("actions"));
    bar->addAction(actions.refresh);
    bar->addSeparator();
    bar->addAction(actions.acquire);
    bar->addAction(actions.extend);
    bar->addAction(actions.release);
    bar->addAction(actions.forceRelease);
    // Only on a production profile: where the greyed writes above are unlocked.
    if (actions.productionWrites)
        bar->addAction(actions.productionWrites);
    bar->addSeparator();
    // The button docs/manual/statuses.md names: a write, confirmed and gated like the others.
    bar->addAction(actions.enableEvents);
    bar->addAction(actions.auditLog);
    bar->addAction(actions.connections);
}

} // namespace

} // namespace WindowMenus

void WindowMenus::build(QMainWindow* window, const WindowActions& actions, LockFilterBar* filterBar)
{
    QMenuBar* bar = window->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(actions.connections);
    if (actions.productionWrites)
        file->addAction(actions.productionWrites);
    file->addSeparator();
    file->addAction(actions.exportCsv);
    file->addAction(actions.exportJson);
    file->addSeparator();
    file->addAction(actions.quit);
    QMenu* lock = bar->addMenu(tr("&Lock"));
    lock->addAction(actions.acquire);
    lock->addAction(actions.extend);
    lock->addAction(actions.release);
    lock->addSeparator();
    lock->addAction(actions.forceRelease);
    lock->addSeparator();
    lock->addAction(actions.trace);
    lock->addSeparator();
    lock->addAction(actions.copyResource);
    lock->addAction(actions.copyToken);
    QMenu* view = bar->addMenu(tr("&View"));
    view->addAction(actions.refresh);
    view->addAction(actions.enableEvents);
    if (actions.record)
        view->addAction(actions.record);
    view->addSeparator();
    if (actions.zoomIn) {
        QMenu* zoom = view->addMenu(tr("&Zoom"));
        zoom->addAction(actions.zoomIn);
        zoom->addAction(actions.zoomOut);
        zoom->addAction(actions.zoomReset);
        view->addSeparator();
    }
    // Every dock and toolbar (PanelsMenu lists them here when the menu opens), then Reset layout.
    QAction* panelsEnd = view->addSeparator();
    view->addAction(actions.resetLayout);
    view->addSeparator();
    view->addAction(actions.auditLog);
    QMenu* filter = addFilterMenu(bar, actions, filterBar);
    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(actions.statusHelp);
    help->addAction(actions.cliHelp);
    help->addSeparator();
    help->addAction(actions.about);
    // A greyed entry says why in its tooltip (ActionGate): menus show tooltips too.
    for (QMenu* menu : {file, lock, view, filter, help})
        menu->setToolTipsVisible(true);
    addToolBar(window, actions);
    new PanelsMenu(window, view, panelsEnd);
}

void WindowMenus::execLockMenu(QWidget* parent, const WindowActions& actions, LockFilterBar* filterBar,
                               const QString& resource, const QPoint& globalPos)
{
    QMenu menu(parent);
    menu.addAction(actions.copyResource);
    menu.addAction(actions.copyToken);
    menu.addSeparator();
    menu.addAction(actions.extend);
    menu.addAction(actions.release);
    menu.addAction(actions.forceRelease);
    menu.addAction(actions.trace);
    menu.addSeparator();
    menu.addAction(tr("Filter to this resource"), filterBar,
                   [filterBar, resource] { filterBar->setText(resource); });
    menu.exec(globalPos);
}

void WindowMenus::showAbout(QWidget* parent)
{
    QMessageBox::about(parent, tr("About LockScope"),
                       tr("<h3>LockScope %1</h3><p>Monitors and administers distributed locks kept in Redis: "
                          "single-instance locks and Redlock over N masters.</p><p>Built with Qt %2.</p>")
                           .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

} // namespace lockscope
