// SPDX-License-Identifier: Apache-2.0
#include "window/centralsplit.h"

#include "detail/lockdetailpane.h"
#include "locks/lockfilterbar.h"
#include "locks/locktableview.h"
#include "widgets/emptystate.h"

#include <QHeaderView>
#include <QVBoxLayout>

namespace lockscope {

CentralSplit::CentralSplit(LockFilterProxy* proxy, QWidget* parent) : QSplitter(Qt::Vertical, parent)
{
    setObjectName(QStringLiteral("centralSplit"));
    auto* top = new QWidget(this);
    // Made in the order Tab visits them: the filter, its quick buttons, then the table it filters.
    m_filterBar = new LockFilterBar(proxy, top);
    m_table = new LockTableView(top);
    m_table->setObjectName(QStringLiteral("locks"));
    m_table->setProxy(proxy);
    m_filterBar->setResults(m_table);
    m_emptyState = new EmptyState(top);
    m_emptyState->hide();
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(4, 4, 4, 0);
    topLayout->addWidget(m_filterBar);
    topLayout->addWidget(m_table, 1);
    topLayout->addWidget(m_emptyState, 1);

    m_detail = new LockDetailPane(this);
    addWidget(top);
    addWidget(m_detail);
    // The table gets most of the height (the pane scrolls), and neither can be dragged away: a
    // collapsed table hides every lock, a collapsed pane hides what a force-release would act on.
    setStretchFactor(0, 3);
    setStretchFactor(1, 1);
    setCollapsible(0, false);
    setCollapsible(1, false);
    resetSizes();
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              3 * m_table->verticalHeader()->defaultSectionSize() +
                              2 * m_table->frameWidth());
}

void CentralSplit::setNothingToWatch(bool empty)
{
    m_emptyState->setVisible(empty);
    m_table->setVisible(!empty);
}

} // namespace lockscope
