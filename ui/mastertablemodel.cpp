#include "mastertablemodel.h"

#include "statusstyle.h"

#include <QGuiApplication>

namespace lockscope {

MasterTableModel::MasterTableModel(QObject* parent) : QAbstractTableModel(parent) {}

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
    emit dataChanged(index(snapshot.index, 0), index(snapshot.index, ColumnCount - 1));
}

int MasterTableModel::upCount() const
{
    int n = 0;
    for (const Row& r : m_rows)
        n += r.snapshot.state == RedisConnection::State::Up ? 1 : 0;
    return n;
}

int MasterTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MasterTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MasterTableModel::display(const Row& row, int column) const
{
    const MasterSnapshot& s = row.snapshot;
    const bool up = s.state == RedisConnection::State::Up;
    switch (column) {
    case MasterColumn:
        // A Sentinel group's row names the node it is connected to: it changes on a failover.
        return s.sentinel && !s.primary.isEmpty() ? tr("%1 → %2").arg(s.name, s.primary) : s.name;
    case StateColumn:
        return StatusStyle::masterStateText(s.state);
    case LatencyColumn:
        return up && s.health.latencyMs >= 0 ? tr("%1 ms").arg(s.health.latencyMs, 0, 'f', 2) : tr("—");
    case VersionColumn:
        return s.health.version;
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

QVariant MasterTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
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
    default:
        return {};
    }
}

QVariant MasterTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
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
