// SPDX-License-Identifier: Apache-2.0
#include "locks/selectionkeeper.h"

#include "base/monotonicclock.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>

namespace lockscope {

SelectionKeeper::SelectionKeeper(QAbstractItemView* view) : QObject(view) {}

void SelectionKeeper::watch(LockFilterProxy* proxy)
{
    m_proxy = proxy;
    // Connected before the view and its selection model connect theirs: the moves Qt makes while
    // rows go away happen inside this bracket and are not taken for the user's choice.
    connect(proxy, &QAbstractItemModel::rowsAboutToBeRemoved, this, &SelectionKeeper::beginStructureChange);
    connect(proxy, &QAbstractItemModel::rowsRemoved, this, &SelectionKeeper::endStructureChange);
    connect(proxy, &QAbstractItemModel::layoutAboutToBeChanged, this, &SelectionKeeper::beginStructureChange);
    connect(proxy, &QAbstractItemModel::layoutChanged, this, &SelectionKeeper::endStructureChange);
    connect(proxy, &QAbstractItemModel::modelAboutToBeReset, this, &SelectionKeeper::beginStructureChange);
}

void SelectionKeeper::attach(QItemSelectionModel* selection)
{
    m_selection = selection;
    connect(selection, &QItemSelectionModel::currentRowChanged, this, &SelectionKeeper::followUser);
    connect(selection, &QItemSelectionModel::selectionChanged, this, &SelectionKeeper::followUser);
    // After the selection model's own reset (which forgets the current row): connected later, so
    // it runs later.
    if (m_proxy)
        connect(m_proxy, &QAbstractItemModel::modelReset, this, &SelectionKeeper::endStructureChange);
}

void SelectionKeeper::followUser()
{
    if (m_changing > 0 || !m_selection)
        return; // Qt moving the row while the model changes: not a choice anybody made
    // The current row counts only while it is also selected. Qt makes a row current without
    // selecting it (when the table gets the focus, or after a Ctrl+click that deselects): a faint
    // frame, which nobody reads as "this lock", so no write may act on it.
    const QModelIndex current = m_selection->currentIndex();
    const bool chosen = current.isValid() && m_selection->isRowSelected(current.row(), current.parent());
    const QByteArray resource =
        chosen ? current.data(LockTableModel::ResourceRole).toByteArray() : QByteArray();
    set(resource.isEmpty() ? State::None : State::Selected, resource);
}

void SelectionKeeper::beginStructureChange()
{
    ++m_changing;
}

void SelectionKeeper::endStructureChange()
{
    if (m_changing > 0)
        --m_changing;
    if (m_changing > 0 || !m_selection || !m_proxy || m_state != State::Selected)
        return;
    ++m_changing; // what follows moves the current row itself
    const int row = proxyRowOf(m_resource);
    const QModelIndex current = m_selection->currentIndex();
    if (row >= 0) {
        if (!current.isValid() || current.row() != row) {
            const QModelIndex index = m_proxy->index(row, 0);
            m_selection->setCurrentIndex(index,
                                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        }
        --m_changing;
        return;
    }
    m_selection->clearSelection();
    m_selection->setCurrentIndex(QModelIndex(), QItemSelectionModel::Clear);
    --m_changing;
    // Gone or hidden? A lock the filter would still show has left the model itself (the proxy
    // drops its rows while the model is about to remove them, so the model may still list it).
    LockTableModel* model = m_proxy->lockModel();
    const int sourceRow = model ? model->rowOf(m_resource) : -1;
    const bool hidden = sourceRow >= 0 && !m_proxy->acceptsSourceRow(sourceRow, monotonicMs());
    set(hidden ? State::None : State::Gone, m_resource);
}

int SelectionKeeper::proxyRowOf(const QByteArray& resource) const
{
    LockTableModel* model = m_proxy ? m_proxy->lockModel() : nullptr;
    const int sourceRow = model ? model->rowOf(resource) : -1;
    if (sourceRow < 0)
        return -1;
    const QModelIndex index = m_proxy->mapFromSource(model->index(sourceRow, 0));
    return index.isValid() ? index.row() : -1;
}

void SelectionKeeper::set(State state, const QByteArray& resource)
{
    if (state == m_state && resource == m_resource)
        return;
    m_state = state;
    m_resource = state == State::None ? QByteArray() : resource;
    emit changed();
}

} // namespace lockscope
