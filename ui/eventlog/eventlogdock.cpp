// SPDX-License-Identifier: Apache-2.0
#include "eventlog/eventlogdock.h"

#include "eventlog/eventlogmodel.h"
#include "widgets/bottomfollower.h"
#include "widgets/readonlyrows.h"

#include <QHeaderView>
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
    // New rows lengthen the scroll bar's range once the view lays them out: it follows then.
    new BottomFollower(m_view);
    setWidget(m_view);
}

} // namespace lockscope
