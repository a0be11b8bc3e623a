// SPDX-License-Identifier: Apache-2.0
#pragma once

class QMainWindow;
class QMenu;
class QPoint;
class QString;
class QWidget;

namespace lockscope {

class LockFilterBar;
struct WindowActions;

// The menu bar (File, Lock, View, Filter, Help) and the Actions toolbar over the window's actions.
// The Filter menu mirrors the filter bar's quick filters, with Ctrl+1.. shortcuts; the View menu
// lists every dock and toolbar (PanelsMenu).
namespace WindowMenus {

void build(QMainWindow* window, const WindowActions& actions, LockFilterBar* filterBar);
// The locks table's context menu on the row of `resource` (as shown), at `globalPos`.
void execLockMenu(QWidget* parent, const WindowActions& actions, LockFilterBar* filterBar,
                  const QString& resource, const QPoint& globalPos);
// Help > About LockScope.
void showAbout(QWidget* parent);

} // namespace WindowMenus

} // namespace lockscope
