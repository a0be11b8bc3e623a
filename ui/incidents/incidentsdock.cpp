// SPDX-License-Identifier: Apache-2.0
#include "incidents/incidentsdock.h"

#include "incidents/incidentsmodel.h"
#include "widgets/bottomfollower.h"
#include "widgets/readonlyrows.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>

namespace lockscope {

IncidentsDock::IncidentsDock(IncidentsModel* incidents, QWidget* parent)
    : QDockWidget(tr("Incidents"), parent), m_incidents(incidents), m_pages(new QStackedWidget(this)),
      m_empty(new QLabel(this)), m_view(new QTableView(this))
{
    setObjectName(QStringLiteral("incidentsDock"));
    m_view->setObjectName(QStringLiteral("incidents"));
    m_view->setModel(incidents);
    setUpReadOnlyRows(m_view);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(IncidentsModel::When, digit * 25);
    m_view->setColumnWidth(IncidentsModel::Confidence, digit * 11);
    m_view->setColumnWidth(IncidentsModel::Kind, digit * 26);
    m_view->setColumnWidth(IncidentsModel::Lock, digit * 22);
    m_view->setColumnWidth(IncidentsModel::Holders, digit * 30);
    new BottomFollower(m_view);
    m_empty->setObjectName(QStringLiteral("incidentsEmpty"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(12);
    setEmptyText(tr("No lock has let two holders in at once since recording began."));
    m_pages->addWidget(m_empty);
    m_pages->addWidget(m_view);
    setWidget(m_pages);
    connect(incidents, &QAbstractItemModel::rowsInserted, this, &IncidentsDock::showWhatThereIs);
    connect(incidents, &QAbstractItemModel::modelReset, this, &IncidentsDock::showWhatThereIs);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid())
            emit lockChosen(m_incidents->incidentAt(index.row()).resource);
    });
    showWhatThereIs();
}

void IncidentsDock::setEmptyText(const QString& text)
{
    m_empty->setText(text);
}

void IncidentsDock::showWhatThereIs()
{
    m_pages->setCurrentWidget(m_incidents->rowCount() > 0 ? static_cast<QWidget*>(m_view) : m_empty);
}

} // namespace lockscope
