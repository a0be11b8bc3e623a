// SPDX-License-Identifier: Apache-2.0
#include "window/windowlayout.h"

#include "locks/lockfilterproxy.h"
#include "window/windowfit.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QSettings>
#include <QSplitter>
#include <QTreeView>

namespace lockscope {

void WindowLayout::restoreOnce()
{
    if (m_restored)
        return;
    m_restored = true;
    m_default = m.window->saveState();
    QSettings settings;
    if (!m_group.isEmpty())
        settings.beginGroup(m_group); // the demo's layout apart from normal sessions'
    if (!m.window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        m.window->resize(1440, 900);
    WindowFit::keepOnScreen(m.window); // neither the default size nor a restored one may exceed the screen
    if (!m.window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        applyDefaultDockSizes();
    m.locksHeader->restoreState(settings.value(QStringLiteral("window/locksHeader")).toByteArray());
    m.masters->header()->restoreState(settings.value(QStringLiteral("window/mastersHeader")).toByteArray());
    m.split->restoreState(settings.value(QStringLiteral("window/centralSplit")).toByteArray());
    m.proxy->sort(m.locksHeader->sortIndicatorSection(), m.locksHeader->sortIndicatorOrder());
}

void WindowLayout::save()
{
    QSettings settings;
    if (!m_group.isEmpty())
        settings.beginGroup(m_group);
    settings.setValue(QStringLiteral("window/geometry"), m.window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), m.window->saveState());
    settings.setValue(QStringLiteral("window/locksHeader"), m.locksHeader->saveState());
    settings.setValue(QStringLiteral("window/mastersHeader"), m.masters->header()->saveState());
    settings.setValue(QStringLiteral("window/centralSplit"), m.split->saveState());
}

void WindowLayout::reset()
{
    m.window->restoreState(m_default);
    applyDefaultDockSizes();
    m.split->setSizes({700, 300}); // the table takes most of the height, as on first start
}

void WindowLayout::arrangeForReview(QDockWidget* history)
{
    m_group = QStringLiteral("review");
    m.split->hide(); // the central widget: the docks take its room
    m.mastersDock->hide();
    m.eventsDock->hide();
    history->show();
    history->raise();
}

void WindowLayout::applyDefaultDockSizes()
{
    // First start: room for five masters, the table, and a readable event log.
    const int row = m.masters->fontMetrics().height() + 8;
    m.window->resizeDocks({m.mastersDock}, {row * 7 + 8}, Qt::Vertical);
    m.window->resizeDocks({m.eventsDock}, {row * 6 + 8}, Qt::Vertical);
}

} // namespace lockscope
