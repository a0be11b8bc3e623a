// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace lockscope {

// The Incidents dock's rows: each time a lock let two holders in at once, newest last, as the
// recording's watch (or a review's full pass) found them. Bytes from the servers (resources,
// tokens) are shown escaped. Rows are only ever added (one insertion per incident found), so a
// long session's list never re-lays out.
class IncidentsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IncidentsModel)

public:
    enum Column
    {
        When,
        Confidence,
        Kind,
        Lock,
        Holders,
        Cause,
        ColumnCount
    };

    explicit IncidentsModel(QObject* parent = nullptr);

    // Adds `incident` unless it is one already listed (same lock, tokens and start); true when added.
    bool add(const SafetyIncident& incident);
    void clear();
    const SafetyIncident& incidentAt(int row) const { return m_rows.at(row); }
    // Incidents at `least` confidence or above.
    int count(SafetyIncident::Confidence least) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<SafetyIncident> m_rows;
    QHash<QString, int> m_rowOf; // safetyIncidentIdentity → row
};

} // namespace lockscope
