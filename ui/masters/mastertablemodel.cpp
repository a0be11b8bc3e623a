// SPDX-License-Identifier: Apache-2.0
#include "masters/mastertablemodel.h"

#include "widgets/plaintooltip.h"
#include "widgets/statusstyle.h"

#include <QGuiApplication>

#include <algorithm>

namespace lockscope {

namespace {

// An index's internal id names its parent: 0 for a master row; for a node row, the master (low 16
// bits, plus one); for a replica row, also the node it hangs under (high bits, plus one).
constexpr quintptr masterBits = 16;
constexpr quintptr masterMask = (quintptr(1) << masterBits) - 1;

quintptr parentId(int master, int node)
{
    return quintptr(master + 1) | (quintptr(node + 1) << masterBits);
}

const MasterNode& nodeOf(const MasterNode& node)
{
    return node;
}

template <typename Row> const MasterNode& nodeOf(const Row& row)
{
    return row.node;
}

bool sameNode(const MasterNode& a, const MasterNode& b)
{
    return a.role == b.role && a.address == b.address;
}

QString latencyText(RedisConnection::State state, double latencyMs)
{
    return state == RedisConnection::State::Up && latencyMs >= 0
               ? MasterTableModel::tr("%1 ms").arg(latencyMs, 0, 'f', 2)
               : MasterTableModel::tr("—");
}

} // namespace

MasterTableModel::MasterTableModel(QObject* parent) : QAbstractItemModel(parent) {}

void MasterTableModel::setMasters(const QStringList& names)
{
    if (!m_rows.isEmpty()) {
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        endRemoveRows();
    }
    if (names.isEmpty())
        return;
    beginInsertRows({}, 0, int(names.size()) - 1);
    for (int i = 0; i < names.size(); ++i) {
        Row row;
        row.snapshot.index = i;
        row.snapshot.name = names.at(i);
        m_rows << row;
    }
    endInsertRows();
}

void MasterTableModel::update(const MasterSnapshot& snapshot)
{
    if (snapshot.index < 0 || snapshot.index >= m_rows.size())
        return;
    Row& row = m_rows[snapshot.index];
    const bool newSample =
        snapshot.health.latencyMs != row.snapshot.health.latencyMs || snapshot.state != row.snapshot.state;
    row.snapshot = snapshot;
    if (newSample) {
        row.latency << (snapshot.state == RedisConnection::State::Up ? snapshot.health.latencyMs : -1.0);
        if (row.latency.size() > historyLength)
            row.latency.removeFirst();
    }
    syncNodes(snapshot.index, snapshot.nodes);
    emit dataChanged(index(snapshot.index, 0), index(snapshot.index, ColumnCount - 1));
}

void MasterTableModel::syncNodes(int master, const QList<MasterNode>& nodes)
{
    QList<NodeRow> wanted;
    for (const MasterNode& node : nodes) {
        if (node.depth > 0 && !wanted.isEmpty())
            wanted.last().replicas << node;
        else
            wanted << NodeRow{node, {}};
    }
    const QModelIndex parent = index(master, 0);
    QList<NodeRow>& current = m_rows[master].nodes;
    syncRows(parent, current, wanted, [this, parent, &current](int row, const NodeRow& want) {
        const bool changed = current[row].node != want.node;
        current[row].node = want.node;
        syncRows(index(row, 0, parent), current[row].replicas, want.replicas,
                 [&replicas = current[row].replicas](int replica, const MasterNode& node) {
                     const bool replicaChanged = replicas[replica] != node;
                     replicas[replica] = node;
                     return replicaChanged;
                 });
        return changed;
    });
}

template <typename Item, typename Refresh>
void MasterTableModel::syncRows(const QModelIndex& parent, QList<Item>& current, const QList<Item>& wanted,
                                Refresh refresh)
{
    const auto wantedHas = [&wanted](const MasterNode& node) {
        return std::any_of(wanted.cbegin(), wanted.cend(),
                           [&node](const Item& w) { return sameNode(nodeOf(w), node); });
    };
    // Rows whose node went away (a failed-over primary, a removed replica), from the back in runs.
    for (int last = int(current.size()) - 1; last >= 0;) {
        if (wantedHas(nodeOf(current.at(last)))) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !wantedHas(nodeOf(current.at(first - 1))))
            --first;
        beginRemoveRows(parent, first, last);
        current.remove(first, last - first + 1);
        endRemoveRows();
        last = first - 1;
    }
    int firstChanged = -1;
    int lastChanged = -1;
    for (int i = 0; i < wanted.size(); ++i) {
        const MasterNode& want = nodeOf(wanted.at(i));
        if (i >= current.size() || !sameNode(nodeOf(current.at(i)), want)) {
            int from = -1;
            for (int j = i + 1; j < current.size() && from < 0; ++j)
                if (sameNode(nodeOf(current.at(j)), want))
                    from = j;
            if (from < 0) {
                beginInsertRows(parent, i, i);
                current.insert(i, wanted.at(i));
                endInsertRows();
                continue;
            }
            beginMoveRows(parent, from, from, parent, i);
            current.move(from, i);
            endMoveRows();
        }
        if (refresh(i, wanted.at(i))) {
            firstChanged = firstChanged < 0 ? i : firstChanged;
            lastChanged = i;
        }
    }
    if (current.size() > wanted.size()) { // duplicates the server listed twice
        beginRemoveRows(parent, int(wanted.size()), int(current.size()) - 1);
        current.resize(wanted.size());
        endRemoveRows();
    }
    if (firstChanged >= 0)
        emit dataChanged(index(firstChanged, 0, parent), index(lastChanged, ColumnCount - 1, parent));
}

int MasterTableModel::upCount() const
{
    int n = 0;
    for (const Row& r : m_rows)
        n += r.snapshot.state == RedisConnection::State::Up ? 1 : 0;
    return n;
}

MasterTableModel::Position MasterTableModel::position(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    const quintptr id = index.internalId();
    if (id == 0)
        return {index.row(), -1, -1};
    const int master = int(id & masterMask) - 1;
    const int node = int(id >> masterBits) - 1;
    if (node < 0)
        return {master, index.row(), -1};
    return {master, node, index.row()};
}

int MasterTableModel::masterOf(const QModelIndex& index)
{
    if (!index.isValid())
        return -1;
    const quintptr id = index.internalId();
    return id == 0 ? index.row() : int(id & masterMask) - 1;
}

const MasterNode* MasterTableModel::nodeAt(const Position& at) const
{
    if (at.master < 0 || at.master >= m_rows.size() || at.node < 0)
        return nullptr;
    const QList<NodeRow>& nodes = m_rows.at(at.master).nodes;
    if (at.node >= nodes.size())
        return nullptr;
    if (at.replica < 0)
        return &nodes.at(at.node).node;
    const QList<MasterNode>& replicas = nodes.at(at.node).replicas;
    return at.replica < replicas.size() ? &replicas.at(at.replica) : nullptr;
}

QModelIndex MasterTableModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    const Position at = position(parent);
    if (at.node < 0)
        return createIndex(row, column, parentId(at.master, -1));
    if (at.replica < 0)
        return createIndex(row, column, parentId(at.master, at.node));
    return {};
}

QModelIndex MasterTableModel::parent(const QModelIndex& child) const
{
    const Position at = position(child);
    if (at.node < 0)
        return {};
    if (at.replica < 0)
        return createIndex(at.master, 0, quintptr(0));
    return createIndex(at.node, 0, parentId(at.master, -1));
}

int MasterTableModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_rows.size());
    if (parent.column() != 0)
        return 0;
    const Position at = position(parent);
    if (at.master < 0 || at.master >= m_rows.size())
        return 0;
    const QList<NodeRow>& nodes = m_rows.at(at.master).nodes;
    if (at.node < 0)
        return int(nodes.size());
    if (at.replica < 0 && at.node < nodes.size())
        return int(nodes.at(at.node).replicas.size());
    return 0;
}

int MasterTableModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant MasterTableModel::display(const Row& row, int column) const
{
    const MasterSnapshot& s = row.snapshot;
    switch (column) {
    case MasterColumn: {
        // A Sentinel group's row names the node it is connected to: it changes on a failover.
        const QString name =
            s.sentinel && !s.primary.isEmpty() ? tr("%1 → %2").arg(s.name, s.primary) : s.name;
        // M1..Mn, as the quorum diagram, the detail pane and the status bar call the masters.
        return tr("M%1  %2").arg(s.index + 1).arg(name);
    }
    case StateColumn:
        return StatusStyle::masterStateText(s.state);
    case LatencyColumn:
        return latencyText(s.state, s.health.latencyMs);
    case VersionColumn:
        return s.health.displayVersion();
    case RoleColumn:
        return s.health.role;
    case NotificationsColumn:
        switch (s.mode) {
        case NotificationMode::Live:
            return tr("live");
        case NotificationMode::Polling:
            return tr("polling");
        case NotificationMode::Unknown:
            return tr("—");
        }
        return {};
    case ClockColumn:
        return s.health.clockOffsetKnown
                   ? tr("%1%2 ms")
                         .arg(s.health.clockOffsetMs >= 0 ? QStringLiteral("+") : QString())
                         .arg(s.health.clockOffsetMs)
                   : tr("—");
    case RestartColumn:
        return s.restartedAt.isValid()
                   ? tr("restarted %1").arg(s.restartedAt.toString(QStringLiteral("HH:mm:ss")))
                   : QString();
    default:
        return {};
    }
}

QVariant MasterTableModel::toolTip(const Row& row, int column) const
{
    const MasterSnapshot& s = row.snapshot;
    switch (column) {
    case MasterColumn:
        if (s.sentinel) {
            const QString primary = s.primary.isEmpty()
                                        ? tr("Sentinel group: no primary known yet.")
                                        : tr("Sentinel group: the current primary is %1.").arg(s.primary);
            return s.error.isEmpty() ? primary : primary + QLatin1Char('\n') + s.error;
        }
        if (s.cluster) {
            QStringList lines;
            for (const MasterNode& node : s.nodes)
                if (node.role == MasterNode::Role::Primary)
                    lines << (node.detail.isEmpty()
                                  ? node.address.toString()
                                  : tr("%1 (%2)").arg(node.address.toString(), node.detail));
            lines.prepend(lines.isEmpty()
                              ? tr("Redis Cluster: no slot map read yet.")
                              : tr("Redis Cluster, %n primary(ies):", nullptr, int(lines.size())));
            if (!s.error.isEmpty())
                lines << s.error;
            return lines.join(QLatin1Char('\n'));
        }
        return s.error.isEmpty() ? StatusStyle::masterStateText(s.state) : s.error;
    case StateColumn:
        return s.error.isEmpty() ? StatusStyle::masterStateText(s.state) : s.error;
    case NotificationsColumn:
        return s.modeReason;
    case RestartColumn:
        return s.restartedAt.isValid()
                   ? tr("The server's run_id changed: it restarted and may have lost the locks it held.")
                   : QString();
    case ClockColumn:
        return tr("Server TIME minus this machine's clock.");
    default:
        return {};
    }
}

QString MasterTableModel::nodeStateText(const MasterNode& node)
{
    return node.monitored ? StatusStyle::masterStateText(node.state) : tr("not watched");
}

QVariant MasterTableModel::nodeDisplay(const MasterNode& node, int column) const
{
    switch (column) {
    case MasterColumn:
        return tr("%1 %2").arg(masterNodeRoleName(node.role), node.address.toString());
    case StateColumn:
        return nodeStateText(node);
    case LatencyColumn:
        return latencyText(node.state, node.latencyMs);
    case RoleColumn:
        return node.detail;
    default:
        return {};
    }
}

QVariant MasterTableModel::nodeToolTip(const MasterNode& node, int column) const
{
    switch (column) {
    case MasterColumn:
    case RoleColumn:
        return node.detail.isEmpty()
                   ? nodeDisplay(node, MasterColumn)
                   : tr("%1: %2").arg(nodeDisplay(node, MasterColumn).toString(), node.detail);
    case StateColumn:
        if (!node.monitored)
            return tr("LockScope keeps no connection to this node: its state is not known here.");
        return node.state == RedisConnection::State::Up || node.detail.isEmpty()
                   ? nodeStateText(node)
                   : tr("%1: %2").arg(nodeStateText(node), node.detail);
    default:
        return {};
    }
}

QVariant MasterTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Position at = position(index);
    if (at.node >= 0) {
        const MasterNode* node = nodeAt(at);
        if (!node)
            return {};
        switch (role) {
        case Qt::DisplayRole:
            return nodeDisplay(*node, index.column());
        case Qt::ToolTipRole:
            return plainToolTip(nodeToolTip(*node, index.column()));
        case Qt::ForegroundRole:
            if (index.column() == StateColumn && node->monitored)
                return StatusStyle::masterStateColor(node->state, QGuiApplication::palette());
            return {};
        case StateRole:
            return int(node->state);
        case MonitoredRole:
            return node->monitored;
        case MasterIndexRole:
            return at.master;
        case NodeRole:
            return QVariant::fromValue(*node);
        default:
            return {};
        }
    }
    const Row& row = m_rows.at(at.master);
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return plainToolTip(toolTip(row, index.column()));
    case Qt::ForegroundRole:
        if (index.column() == StateColumn)
            return StatusStyle::masterStateColor(row.snapshot.state, QGuiApplication::palette());
        if (index.column() == RestartColumn)
            return StatusStyle::warningColor(QGuiApplication::palette());
        return {};
    case StateRole:
        return int(row.snapshot.state);
    case LatencyHistoryRole:
        return QVariant::fromValue(row.latency);
    case MasterIndexRole:
        return at.master;
    case MonitoredRole:
        return true;
    default:
        return {};
    }
}

QVariant MasterTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case MasterColumn:
        return tr("Master");
    case StateColumn:
        return tr("State");
    case LatencyColumn:
        return tr("Latency");
    case VersionColumn:
        return tr("Version");
    case RoleColumn:
        return tr("Role");
    case NotificationsColumn:
        return tr("Notifications");
    case ClockColumn:
        return tr("Clock offset");
    case RestartColumn:
        return tr("Restart");
    default:
        return {};
    }
}

} // namespace lockscope
