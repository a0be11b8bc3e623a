// SPDX-License-Identifier: Apache-2.0
#include "insights/insightsdock.h"

#include "insights/insightscharts.h"
#include "insights/insightsmodel.h"
#include "widgets/readonlyrows.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace lockscope {

InsightsDock::InsightsDock(InsightsModel* families, QWidget* parent)
    : QDockWidget(tr("Insights"), parent), m_families(families), m_since(new QComboBox),
      m_refresh(new QToolButton), m_status(new QLabel), m_pages(new QStackedWidget), m_empty(new QLabel),
      m_split(new QSplitter(Qt::Horizontal)), m_view(new QTableView), m_charts(new InsightsCharts)
{
    setObjectName(QStringLiteral("insightsDock"));
    m_view->setObjectName(QStringLiteral("insights"));
    m_since->setObjectName(QStringLiteral("insightsSince"));
    m_refresh->setObjectName(QStringLiteral("insightsRefresh"));
    m_status->setObjectName(QStringLiteral("insightsStatus"));
    m_empty->setObjectName(QStringLiteral("insightsEmpty"));
    const std::pair<QString, qint64> spans[] = {{tr("the last 15 minutes"), 15 * 60 * 1000LL},
                                                {tr("the last hour"), 3600 * 1000LL},
                                                {tr("the last 24 hours"), 24 * 3600 * 1000LL},
                                                {tr("the last 7 days"), 7 * 24 * 3600 * 1000LL},
                                                {tr("the whole recording"), -1}};
    for (const auto& [name, ms] : spans)
        m_since->addItem(name, ms);
    m_since->setCurrentIndex(m_since->count() - 1);
    m_refresh->setText(tr("Refresh"));
    m_refresh->setToolTip(tr("Read the recording again"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setModel(families);
    setUpReadOnlyRows(m_view);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    // In digits, so that every column, Contention last, fits beside the charts at 1366 x 768.
    static constexpr int digits[InsightsModel::ColumnCount] = {17, 6, 7, 8, 8, 7, 9, 7, 8, 9, 15};
    for (int column = 0; column < InsightsModel::ColumnCount; ++column)
        m_view->setColumnWidth(column, digit * digits[column]);
    m_split->addWidget(m_view);
    m_split->addWidget(m_charts);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 2);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(12);
    m_pages->addWidget(m_empty);
    m_pages->addWidget(m_split);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Over:")));
    controls->addWidget(m_since);
    controls->addWidget(m_refresh);
    controls->addWidget(m_status, 1);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_pages, 1);
    setWidget(page);

    connect(m_refresh, &QToolButton::clicked, this, &InsightsDock::refreshRequested);
    connect(m_since, &QComboBox::currentIndexChanged, this, &InsightsDock::refreshRequested);
    connect(families, &QAbstractItemModel::modelReset, this, [this] {
        showWhatThereIs();
        // Listed anew: the family shown before is selected again where it still is.
        const int row = m_families->rowOf(m_selected);
        if (row >= 0)
            m_view->selectRow(row);
        else if (m_families->rowCount() > 0)
            m_view->selectRow(0);
        showSelected();
    });
    connect(families, &QAbstractItemModel::dataChanged, this, &InsightsDock::showSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndexList rows = m_view->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            m_selected = m_families->familyAt(rows.first().row()).family;
        showSelected();
    });
    setEmptyText(tr("Insights are drawn from the recording: turn on View > Record history."));
}

qint64 InsightsDock::sinceSpanMs() const
{
    return m_since->currentData().toLongLong();
}

void InsightsDock::setStatus(const QString& text)
{
    m_status->setText(text);
}

void InsightsDock::setEmptyText(const QString& text)
{
    m_empty->setText(text);
    showWhatThereIs();
}

QByteArray InsightsDock::selectedFamily() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QByteArray() : m_families->familyAt(rows.first().row()).family;
}

void InsightsDock::showWhatThereIs()
{
    m_pages->setCurrentWidget(m_families->rowCount() > 0 ? static_cast<QWidget*>(m_split) : m_empty);
}

void InsightsDock::showSelected()
{
    const int row = m_families->rowOf(selectedFamily());
    m_charts->show(row >= 0 ? &m_families->familyAt(row) : nullptr);
}

} // namespace lockscope
