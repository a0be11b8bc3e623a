// SPDX-License-Identifier: Apache-2.0
#include "eventlog/eventlogdock.h"

#include "eventlog/eventlogmodel.h"
#include "widgets/readonlyrows.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

namespace lockscope {

EventLogDock::EventLogDock(EventLogModel* events, QWidget* parent)
    : QDockWidget(tr("Event log"), parent), m_view(new QTableView(this))
{
    setObjectName(QStringLiteral("eventsDock"));
    m_view->setObjectName(QStringLiteral("events"));
    m_view->setModel(events);
    setUpReadOnlyRows(m_view);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->setColumnWidth(EventLogModel::TimeColumn, 100);
    m_view->setColumnWidth(EventLogModel::KindColumn, 80);
    m_view->setColumnWidth(EventLogModel::SourceColumn, 200);
    connect(events, &QAbstractItemModel::rowsInserted, this, &EventLogDock::followNewest);
    setWidget(m_view);
}

void EventLogDock::followNewest()
{
    // Follow the newest entry only when already at the bottom: reading older ones is not interrupted.
    QScrollBar* bar = m_view->verticalScrollBar();
    if (bar->value() >= bar->maximum() - m_view->verticalHeader()->defaultSectionSize() * 2)
        QMetaObject::invokeMethod(m_view, &QAbstractItemView::scrollToBottom, Qt::QueuedConnection);
}

} // namespace lockscope
