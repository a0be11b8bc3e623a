// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractListModel>
#include <QList>

namespace lockscope {

// The resources of a reviewed recording, for the History dock's list: a million of them is one
// model reset, each name escaped only when a row is drawn (a combo box filled item by item froze
// the window for seconds, and sized itself by measuring every name).
class RecordedResourcesModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordedResourcesModel)

public:
    explicit RecordedResourcesModel(QObject* parent = nullptr);

    void setResources(QList<QByteArray> resources);
    // The row of `resource`, or -1 (a binary search: the recording lists them sorted).
    int rowOf(const QByteArray& resource) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    // DisplayRole: the escaped name; UserRole: the bytes.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    QList<QByteArray> m_resources;
    bool m_sorted = true;
};

} // namespace lockscope
