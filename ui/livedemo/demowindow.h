// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QDockWidget;

namespace lockscope {

class DemoPanel;
class DemoSession;
class MainWindow;

// `lockscope --demo` in a main window: the demo panel in a dock beside the locks (in a scroll area,
// so that the window fits a 1366x768 screen, or 1920x1080 at 150 %), the scenario's lock pinned in
// the locks table while its caption is shown, the demo clients' keyspace events summarised in the
// event log, and the window watching the demo's masters once they are up. `session` must outlive
// the window; start it after this.
namespace DemoWindow {

DemoPanel* install(MainWindow* window, DemoSession* session, bool readOnly, const QString& auditLogPath,
                   bool selectDefault = true);
QDockWidget* dock(MainWindow* window);

} // namespace DemoWindow

} // namespace lockscope
