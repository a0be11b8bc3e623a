// SPDX-License-Identifier: Apache-2.0
#include "incidents/incidentsmodel.h"

#include "base/bytesdisplay.h"

#include <QDateTime>

namespace lockscope {

namespace {

QString localTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

} // namespace

IncidentsModel::IncidentsModel(QObject* parent) : QAbstractTableModel(parent) {}

bool IncidentsModel::add(const SafetyIncident& incident)
{
    const QString key = safetyIncidentIdentity(incident);
    if (const auto known = m_rowOf.constFind(key); known != m_rowOf.cend()) {
        // The same incident with more evidence (a possible handover the tracer proved): in its row.
        SafetyIncident& row = m_rows[known.value()];
        if (incident.confidence <= row.confidence)
            return false;
        row = incident;
        emit dataChanged(index(known.value(), 0), index(known.value(), columnCount() - 1));
        return true;
    }
    m_rowOf.insert(key, int(m_rows.size()));
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
    m_rows << incident;
    endInsertRows();
    return true;
}

void IncidentsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_rowOf.clear();
    endResetModel();
}

int IncidentsModel::count(SafetyIncident::Confidence least) const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(),
                             [least](const SafetyIncident& i) { return i.confidence >= least; }));
}

int IncidentsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int IncidentsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IncidentsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const SafetyIncident& i = m_rows.at(index.row());
    if (role == Qt::ToolTipRole) {
        // The whole story: when, both holders (a fencing counter's two values), the cause and the
        // events it rests on.
        const bool fencing = i.kind == SafetyIncident::Kind::FencingRegression;
        QStringList lines{
            tr("%1 to %2").arg(localTime(i.fromMs), localTime(i.toMs)),
            (fencing ? tr("counter's highest before: %1%2") : tr("first holder: %1%2"))
                .arg(escapeBytes(i.firstToken),
                     i.firstOwner.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(i.firstOwner)),
            (fencing ? tr("then read: %1%2") : tr("second holder: %1%2"))
                .arg(escapeBytes(i.secondToken),
                     i.secondOwner.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(i.secondOwner)),
            i.cause, QString()};
        lines << i.evidence;
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case When:
        return localTime(i.fromMs);
    case Confidence:
        return safetyConfidenceName(i.confidence);
    case Kind:
        return safetyIncidentKindName(i.kind);
    case Lock:
        return escapeBytes(i.resource);
    case Holders:
        return safetyIncidentHolders(i);
    case Cause:
        return i.cause;
    default:
        return {};
    }
}

QVariant IncidentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case When:
        return tr("From");
    case Confidence:
        return tr("Confidence");
    case Kind:
        return tr("Kind");
    case Lock:
        return tr("Lock");
    case Holders:
        return tr("Holders");
    case Cause:
        return tr("Cause");
    default:
        return {};
    }
}

} // namespace lockscope
