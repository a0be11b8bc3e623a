#pragma once

#include "mastersnapshot.h"

#include <QAbstractTableModel>
#include <QList>

namespace lockscope {

// One row per master, in master order: state, latency (with its recent history for the
// sparkline), version, role, notification mode, clock offset and a restart warning. A Sentinel
// group is one row, its current primary shown after its name (and in the tooltip).
class MasterTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MasterTableModel)

public:
    enum Column
    {
        MasterColumn,
        StateColumn,
        LatencyColumn,
        VersionColumn,
        RoleColumn,
        NotificationsColumn,
        ClockColumn,
        RestartColumn,
        ColumnCount
    };
    enum Role
    {
        StateRole = Qt::UserRole + 1, // int(RedisConnection::State)
        LatencyHistoryRole,           // QList<double>, oldest first; -1 where no answer came
    };
    static constexpr int historyLength = 60;

    explicit MasterTableModel(QObject* parent = nullptr);

    void setMasters(const QStringList& names);
    void update(const MasterSnapshot& snapshot);
    const MasterSnapshot& snapshot(int row) const { return m_rows.at(row).snapshot; }
    int upCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        MasterSnapshot snapshot;
        QList<double> latency;
    };
    QVariant display(const Row& row, int column) const;
    QVariant toolTip(const Row& row, int column) const;

    QList<Row> m_rows;
};

} // namespace lockscope
