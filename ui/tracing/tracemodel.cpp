// SPDX-License-Identifier: Apache-2.0
#include "tracing/tracemodel.h"

#include "trace/tracetext.h"
#include "widgets/statusstyle.h"

#include <QGuiApplication>
#include <QPalette>

namespace lockscope {

TraceModel::TraceModel(QObject* parent) : QAbstractTableModel(parent) {}

void TraceModel::append(const QList<TracedCommand>& commands)
{
    if (commands.isEmpty())
        return;
    // Past maxRows, the oldest go first, in one removal.
    const qsizetype over = qsizetype(m_rows.size()) + commands.size() - maxRows;
    if (over > 0) {
        const int drop = int(qMin<qsizetype>(over, qsizetype(m_rows.size())));
        if (drop > 0) {
            beginRemoveRows({}, 0, drop - 1);
            m_rows.erase(m_rows.begin(), m_rows.begin() + drop);
            endRemoveRows();
        }
    }
    const qsizetype take = qMin<qsizetype>(commands.size(), maxRows);
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(take) - 1);
    for (qsizetype i = commands.size() - take; i < commands.size(); ++i) {
        m_rows.push_back(commands.at(i));
        if (isTraceWarning(commands.at(i).meaning))
            ++m_warnings;
    }
    endInsertRows();
}

void TraceModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_warnings = 0;
    endResetModel();
}

int TraceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TraceModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString TraceModel::text(const TracedCommand& c, int column) const
{
    switch (column) {
    case Time:
        return TraceText::time(c.timeUs);
    case Master:
        return m_masterNames.value(c.master, QString::number(c.master + 1));
    case Connection:
        return c.client.display();
    case Meaning:
        return traceMeaningText(c.meaning);
    case Command: {
        QString out = TraceText::command(c.args);
        for (const QByteArrayList& call : c.scriptCalls)
            out += QStringLiteral(" [") + TraceText::command(call) + QLatin1Char(']');
        return out;
    }
    case Detail:
        return c.detail;
    }
    return QString();
}

QVariant TraceModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const TracedCommand& c = m_rows.at(std::size_t(index.row()));
    if (role == Qt::DisplayRole)
        return text(c, index.column());
    if (role == Qt::ToolTipRole)
        return TraceText::line(c, m_masterNames.value(c.master));
    if (role == Qt::ForegroundRole && isTraceWarning(c.meaning))
        return StatusStyle::warningColor(QGuiApplication::palette());
    return {};
}

QVariant TraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time:
        return tr("Time (UTC)");
    case Master:
        return tr("Master");
    case Connection:
        return tr("Connection");
    case Meaning:
        return tr("Meaning");
    case Command:
        return tr("Command");
    case Detail:
        return tr("Why");
    }
    return {};
}

} // namespace lockscope
