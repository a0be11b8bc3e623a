// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

namespace lockscope {

class DemoPanel;

// The Demo menu, only in a window that runs the demo: each guided scenario with a keyboard
// shortcut (Alt+1…). It presses the demo panel's own scenario button, so there is one way a
// scenario starts, and an entry is greyed exactly when its button is.
class DemoMenu final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoMenu)

public:
    // Adds the menu to `window`'s menu bar, before Help.
    DemoMenu(QMainWindow* window, DemoPanel* panel);

    QMenu* menu() const { return m_menu; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void sync();

    DemoPanel* m_panel;
    QMenu* m_menu;
    QAction* m_renew = nullptr; // Renew the sample locks
};

} // namespace lockscope
