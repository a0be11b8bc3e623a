// SPDX-License-Identifier: Apache-2.0
#include "livedemo/demomenu.h"

#include "livedemo/demopanel.h"

#include <QAction>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>

namespace lockscope {

DemoMenu::DemoMenu(QMainWindow* window, DemoPanel* panel)
    : QObject(panel), m_panel(panel), m_menu(new QMenu(tr("&Demo"), window))
{
    m_menu->setObjectName(QStringLiteral("demoMenu"));
    m_menu->setToolTipsVisible(true);
    int n = 0;
    for (DemoScenario s : allDemoScenarios()) {
        QPushButton* button = panel->scenarioButton(s);
        if (!button)
            continue;
        ++n;
        auto* action = m_menu->addAction(demoScenarioTitle(s));
        action->setToolTip(button->toolTip());
        action->setData(int(s));
        if (n <= 9)
            action->setShortcut(QKeySequence(tr("Alt+%1").arg(n)));
        // Window-wide, not only while the menu is open.
        action->setShortcutContext(Qt::WindowShortcut);
        window->addAction(action);
        connect(action, &QAction::triggered, button, &QPushButton::click);
        button->installEventFilter(this); // greyed with its button (the demo not up yet, say)
    }
    m_menu->addSeparator();
    m_renew = m_menu->addAction(tr("&Renew the sample locks"));
    m_renew->setObjectName(QStringLiteral("renewSamples"));
    m_renew->setToolTip(tr("Writes the sample locks again, as at the start, with their full TTLs: the short "
                           "ones expire within a minute"));
    connect(m_renew, &QAction::triggered, panel, &DemoPanel::renewSamples);
    panel->restoreButton()->installEventFilter(this); // ready with the demo, as Restore all masters
    sync();
    // Before Help, which stays last.
    const QList<QAction*> top = window->menuBar()->actions();
    if (top.isEmpty())
        window->menuBar()->addMenu(m_menu);
    else
        window->menuBar()->insertMenu(top.last(), m_menu);
}

bool DemoMenu::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::EnabledChange)
        sync();
    return QObject::eventFilter(watched, event);
}

void DemoMenu::sync()
{
    for (QAction* action : m_menu->actions())
        if (action != m_renew && !action->isSeparator())
            if (QPushButton* button = m_panel->scenarioButton(DemoScenario(action->data().toInt())))
                action->setEnabled(button->isEnabled());
    if (m_renew)
        m_renew->setEnabled(m_panel->restoreButton()->isEnabled());
}

} // namespace lockscope
