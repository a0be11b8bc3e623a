// SPDX-License-Identifier: Apache-2.0
#include "eventlog/eventlogmodel.h"

#include "widgets/plaintooltip.h"
#include "widgets/statusstyle.h"

#include <QGuiApplication>

namespace lockscope {

EventLogModel::EventLogModel(int capacity, QObject* parent)
    : QAbstractTableModel(parent), m_capacity(capacity)
{}

void EventLogModel::add(Kind kind, const QString& source, const QString& message, const QDateTime& time)
{
    addAll({Entry{time, kind, source, message}});
}

void EventLogModel::addAll(const QList<Entry>& entries)
{
    if (entries.isEmpty())
        return;
    const QList<Entry> kept =
        entries.size() > m_capacity ? entries.mid(entries.size() - m_capacity) : entries;
    const int overflow = int(m_entries.size() + kept.size()) - m_capacity;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_entries.remove(0, overflow);
        endRemoveRows();
    }
    beginInsertRows({}, int(m_entries.size()), int(m_entries.size() + kept.size()) - 1);
    m_entries.append(kept);
    endInsertRows();
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString EventLogModel::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Keyspace:
        return tr("keyspace");
    case Kind::Master:
        return tr("master");
    case Kind::Action:
        return tr("action");
    case Kind::Error:
        return tr("error");
    case Kind::Notification:
        return tr("notification");
    }
    return QString();
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry& e = m_entries.at(index.row());
    if (role == Qt::ToolTipRole)
        return plainToolTip(data(index, Qt::DisplayRole));
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return e.time.toString(QStringLiteral("HH:mm:ss.zzz"));
        case KindColumn:
            return kindName(e.kind);
        case SourceColumn:
            return e.source;
        case MessageColumn:
            return e.message;
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && e.kind == Kind::Error)
        return StatusStyle::statusColor(LockStatus::Stuck, QGuiApplication::palette());
    return {};
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Kind");
    case SourceColumn:
        return tr("Source");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace lockscope
