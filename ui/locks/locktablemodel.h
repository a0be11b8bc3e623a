// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"
#include "locks/sortname.h"
#include "monitor/lockview.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QStringList>

#include <array>
#include <deque>
#include <memory>
#include <vector>

namespace lockscope {

// Every lock the monitor reports, one row per resource, kept current from LockBatch without ever
// resetting: removals and insertions in ranges, changes as coalesced dataChanged. The TTL column
// computes from the monotonic clock each time it is asked, so the countdown needs no model churn.
class LockTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockTableModel)

public:
    enum Column
    {
        ResourceColumn,
        StatusColumn,
        QuorumColumn,
        OwnerColumn,
        FormatColumn,
        TtlColumn,
        MastersColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole + 1, // the raw value of a column, for sorting and filtering
        ResourceRole,                // QByteArray
        TokenRole,                   // QByteArray
        StatusRole,                  // int(LockStatus)
        HoldingRole,
        NeededRole,
        TotalRole,
        ValidityRole,     // qint64 ms left now; -1: no expiry
        MasterDotsRole,   // QVariantList of MasterDot per master
        MasterTokensRole, // QVariantList of QByteArray per master
        AtRiskRole,       // bool
        PinnedRole,       // bool: the row setPinned() names
    };
    enum MasterDot
    {
        DotAbsent,
        DotHoldsToken, // holds the majority token
        DotOtherToken,
        DotError,
    };
    using StatusCounts = std::array<int, 5>; // indexed by LockStatus

    explicit LockTableModel(QObject* parent = nullptr);
    ~LockTableModel() override;

    void setMasterNames(const QStringList& names) { m_masterNames = names; }
    const QStringList& masterNames() const { return m_masterNames; }

    void apply(const LockBatch& batch);
    // Every row removed, as a batch removing them would (another set of masters: the old rows mean
    // nothing any more).
    void removeAll();
    // Room for `rows` rows without growing the index by resource (CoreService::locksForeseen).
    void reserve(qsizetype rows);

    // One resource kept in view (the demo pins the lock a scenario is about): highlighted, sorted
    // first and never filtered out by the proxy, and, should it leave the masters while pinned,
    // kept as its last view marked "gone" (not counted) until it is unpinned. Empty: none.
    void setPinned(const QByteArray& resource);
    const QByteArray& pinned() const { return m_pinned; }
    bool isPinnedGone() const { return m_pinnedGone; }

    int rowOf(const QByteArray& resource) const;
    const LockView& viewAt(int row) const { return m_rows[size_t(row)]->view; }
    // The row's resource, from an array of them in row order: sorting compares names, and reaching
    // one through the row and its view cost two more cache misses a side.
    QByteArrayView resourceAt(int row) const { return m_names[size_t(row)].name; }
    const LockView* find(const QByteArray& resource) const;
    const StatusCounts& counts() const { return m_counts; }
    // The order of two rows on `column`: the same raw values SortRole gives.
    bool lessThan(int rowA, int rowB, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString ttlText(const LockView& view, qint64 nowMs);

signals:
    void countsChanged();
    void pinnedChanged();

private:
    struct Row
    {
        SharedLockView view; // the monitor's own, not a copy
        int row = 0;
    };

    void removeResources(const QList<QByteArray>& resources);
    void appendViews(const QList<SharedLockView>& views);
    void count(const LockView& view, int delta);
    QVariant displayData(const LockView& view, int column) const;
    QVariant sortData(const LockView& view, int column) const;
    QVariant toolTip(const LockView& view, int column) const;

    // A row gone is pooled for the next one added: rows live in blocks, not in an allocation of
    // 16 bytes each (32 with malloc's own; a million rows, 16 MB less). Their addresses stay put,
    // so the index by resource never changes when rows above are removed.
    Row* newRow(const SharedLockView& view, int row);
    void freeRow(Row* row);

    std::vector<Row*> m_rows;
    std::vector<SortName> m_names; // each row's view's resource, by row: its bytes are the view's
    std::deque<Row> m_rowPool;
    std::vector<Row*> m_freeRows;
    QHash<HashedKey, Row*> m_byResource;
    StatusCounts m_counts{};
    QStringList m_masterNames;
    QByteArray m_pinned;
    bool m_pinnedGone = false;
};

} // namespace lockscope
