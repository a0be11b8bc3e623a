// SPDX-License-Identifier: Apache-2.0
#include "widgets/readonlyrows.h"

#include <QHeaderView>
#include <QTableView>

namespace lockscope {

void setUpReadOnlyRows(QTableView* view)
{
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
}

} // namespace lockscope
