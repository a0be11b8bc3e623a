#pragma once

#include <QCoreApplication>

class QMainWindow;
class QMenu;
class QMenuBar;
class QPoint;
class QString;
class QWidget;

namespace lockscope {

class LockFilterBar;
struct WindowActions;

// The menu bar (File, Lock, View, Filter, Help) and the Actions toolbar over the window's actions.
// The Filter menu mirrors the filter bar's quick filters, with Ctrl+1.. shortcuts; the View menu
// lists every dock and toolbar (PanelsMenu).
class WindowMenus final
{
    Q_DECLARE_TR_FUNCTIONS(WindowMenus)

public:
    static void build(QMainWindow* window, const WindowActions& actions, LockFilterBar* filterBar);
    // The locks table's context menu on the row of `resource` (as shown), at `globalPos`.
    static void execLockMenu(QWidget* parent, const WindowActions& actions, LockFilterBar* filterBar,
                             const QString& resource, const QPoint& globalPos);

private:
    static QMenu* addFilterMenu(QMenuBar* bar, const WindowActions& actions, LockFilterBar* filterBar);
    static void addToolBar(QMainWindow* window, const WindowActions& actions);
};

} // namespace lockscope
