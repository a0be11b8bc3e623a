// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "insights/familyfigures.h"

#include <QAbstractTableModel>
#include <QList>

namespace lockscope {

// The Insights view's rows: one family of locks each, riskiest first, as the last pass over the
// recording found them (FamilyFigures). A figure past its threshold is drawn in the warning colour
// and says why in its tooltip. A new pass with the same families in the same order changes the
// cells in place (one dataChanged), so the selection and the scroll position stay.
class InsightsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InsightsModel)

public:
    enum Column
    {
        Family,
        Locks,
        PerMinute,
        HoldP50,
        HoldP99,
        Lease,
        Headroom,
        Expired,
        HandoverP50,
        Renewals,
        Contention,
        ColumnCount
    };

    explicit InsightsModel(QObject* parent = nullptr);

    void setFamilies(const QList<FamilyFigures>& families);
    const QList<FamilyFigures>& families() const { return m_rows; }
    const FamilyFigures& familyAt(int row) const { return m_rows.at(row); }
    // The row of the family named `family`, or -1.
    int rowOf(const QByteArray& family) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const FamilyFigures& f, int column) const;
    QString toolTip(const FamilyFigures& f, int column) const;

    QList<FamilyFigures> m_rows;
};

} // namespace lockscope
