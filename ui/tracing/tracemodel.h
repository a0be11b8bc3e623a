// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/tracedcommand.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <deque>

namespace lockscope {

// The Trace dock's rows: the traced commands of one lock, oldest first, at most maxRows (the oldest
// go first). Added a batch at a time, one insertion each; a warning's row (a stale holder, a delete
// by a non-holder, an overwrite) is in the warning colour. Bytes from the servers are escaped.
class TraceModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TraceModel)

public:
    // What a reader scans for first comes first; the master (a long URL) last.
    enum Column
    {
        Time,
        Meaning,
        Connection,
        Command,
        Detail,
        Master,
        ColumnCount
    };
    static constexpr int maxRows = 5000;

    explicit TraceModel(QObject* parent = nullptr);

    void setMasterNames(const QStringList& names) { m_masterNames = names; }
    void append(const QList<TracedCommand>& commands);
    void clear();
    const TracedCommand& commandAt(int row) const { return m_rows.at(std::size_t(row)); }
    int warnings() const { return m_warnings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const TracedCommand& command, int column) const;

    std::deque<TracedCommand> m_rows;
    QStringList m_masterNames;
    int m_warnings = 0;
};

} // namespace lockscope
