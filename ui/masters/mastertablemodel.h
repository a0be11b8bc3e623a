// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "session/mastersnapshot.h"

#include <QAbstractItemModel>
#include <QList>

namespace lockscope {

// The masters panel: one top-level row per master, in master order (top-level row i is master i),
// with state, latency (and its recent history for the sparkline), version, role, notification
// mode, clock offset and a restart warning. A group's nodes are child rows: a cluster's primaries
// with their replicas under them, a Sentinel group's current primary and the sentinel listened to.
// A Sentinel group's row also names its current primary after its name (and in the tooltip).
// Updates are incremental: nodes that come and go are inserted and removed, the rest changed in
// place; the model is never reset.
class MasterTableModel final : public QAbstractItemModel
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
        MasterIndexRole,              // int: the master this row is, or belongs to
        NodeRole,                     // QVariant(MasterNode) on a node row, invalid on a master row
        MonitoredRole,                // bool: false for a node whose state is not known (no connection)
    };
    static constexpr int historyLength = 60;

    explicit MasterTableModel(QObject* parent = nullptr);

    void setMasters(const QStringList& names);
    void update(const MasterSnapshot& snapshot);
    const MasterSnapshot& snapshot(int row) const { return m_rows.at(row).snapshot; }
    int upCount() const;
    // The master a row of this model belongs to (its own for a top-level row), -1 when invalid.
    static int masterOf(const QModelIndex& index);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // A child row of an entry, with the replicas under it (a cluster primary's).
    struct NodeRow
    {
        MasterNode node;
        QList<MasterNode> replicas;
    };
    struct Row
    {
        MasterSnapshot snapshot;
        QList<double> latency;
        QList<NodeRow> nodes;
    };

    // Which row an index is: a master (node < 0), one of its nodes (replica < 0), or a replica.
    struct Position
    {
        int master = -1;
        int node = -1;
        int replica = -1;
    };
    Position position(const QModelIndex& index) const;
    const MasterNode* nodeAt(const Position& at) const;

    void syncNodes(int master, const QList<MasterNode>& nodes);
    // Brings `current` (the children of `parent`) to `wanted` with row insertions, removals and
    // moves, matching rows by role and address; `refresh(row, wanted)` updates a kept row in place
    // and says whether its cells changed. Those go out as one dataChanged.
    template <typename Item, typename Refresh>
    void syncRows(const QModelIndex& parent, QList<Item>& current, const QList<Item>& wanted,
                  Refresh refresh);

    QVariant display(const Row& row, int column) const;
    QVariant toolTip(const Row& row, int column) const;
    static QString nodeStateText(const MasterNode& node);
    QVariant nodeDisplay(const MasterNode& node, int column) const;
    QVariant nodeToolTip(const MasterNode& node, int column) const;

    QList<Row> m_rows;
};

} // namespace lockscope
