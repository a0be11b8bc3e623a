// SPDX-License-Identifier: Apache-2.0
#include "history/recordedresourcesmodel.h"

#include "base/bytesdisplay.h"

#include <algorithm>

namespace lockscope {

RecordedResourcesModel::RecordedResourcesModel(QObject* parent) : QAbstractListModel(parent) {}

void RecordedResourcesModel::setResources(QList<QByteArray> resources)
{
    beginResetModel();
    m_resources = std::move(resources);
    m_sorted = std::is_sorted(m_resources.cbegin(), m_resources.cend());
    endResetModel();
}

int RecordedResourcesModel::rowOf(const QByteArray& resource) const
{
    if (!m_sorted) {
        const qsizetype at = m_resources.indexOf(resource);
        return int(at);
    }
    const auto it = std::lower_bound(m_resources.cbegin(), m_resources.cend(), resource);
    return it != m_resources.cend() && *it == resource ? int(it - m_resources.cbegin()) : -1;
}

int RecordedResourcesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_resources.size());
}

QVariant RecordedResourcesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_resources.size())
        return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return escapeBytes(m_resources.at(index.row()));
    if (role == Qt::UserRole)
        return m_resources.at(index.row());
    return {};
}

} // namespace lockscope
