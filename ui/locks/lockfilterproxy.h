// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locks/lockfilter.h"
#include "locks/lockfilterpass.h"

#include <QAbstractProxyModel>
#include <QTimer>

#include <memory>
#include <vector>

namespace lockscope {

class LockTableModel;

// Sorting and filtering over LockTableModel that stays cheap at 100k rows. QSortFilterProxyModel
// rebuilds its whole mapping once per inserted interval, which turns a sorted batch of thousands
// of new locks into seconds of stall; here a batch is appended in one insertion and merged into
// place with one layout change, and removals touch only the rows after them. Sorting compares
// the model's raw values (the same ones its SortRole gives), never display strings.
//
// A filter change at a million rows is too much work for one go on the GUI thread: it is worked
// out a slice of a few milliseconds at a time (judging every row, weighing what it drops and adds,
// sorting the rows it lets in with the ones that stay, laying out the order and its map: a
// LockFilterPass), while the view keeps showing the previous result; the new one is swapped in at
// once when done, in a slice that walks no rows. A further change (the next character typed) starts
// over. Small models (up to 20k rows) finish in one go, before the setter returns.
class LockFilterProxy final : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockFilterProxy)

public:
    // The filter's quick filters (LockFilter), named after the proxy too.
    using QuickFilter = LockFilter::QuickFilter;
    using QuickFilters = LockFilter::QuickFilters;
    static constexpr QuickFilter NoQuickFilter = LockFilter::NoQuickFilter;
    static constexpr QuickFilter StuckFilter = LockFilter::StuckFilter;
    static constexpr QuickFilter ContestedFilter = LockFilter::ContestedFilter;
    static constexpr QuickFilter PartialFilter = LockFilter::PartialFilter;
    static constexpr QuickFilter ExpiringSoonFilter = LockFilter::ExpiringSoonFilter;

    explicit LockFilterProxy(QObject* parent = nullptr);
    ~LockFilterProxy() override;

    // Only a LockTableModel is accepted.
    void setSourceModel(QAbstractItemModel* source) override;
    LockTableModel* lockModel() const { return m_model; }

    // The filter wanted (LockFilter says what each part lets through).
    void setFilterText(const QString& text);
    const QString& filterText() const { return m_wanted.text(); }
    void setQuickFilters(QuickFilters filters);
    QuickFilters quickFilters() const { return m_wanted.quickFilters(); }
    void setExpiringSoonMs(qint64 ms);
    qint64 expiringSoonMs() const { return m_wanted.expiringSoonMs(); }
    // Time moves locks into "expiring soon": the view calls this on its countdown tick.
    void recheckTimeFilters();
    // Whether the shown rows pass the filter now shown (while isFiltering(), not yet the one last set).
    bool acceptsSourceRow(int sourceRow, qint64 nowMs) const;
    // A filter change is being worked out; the rows shown are still those of the previous filter.
    bool isFiltering() const { return m_pass != nullptr; }
    // At most this many rows judged (or comparisons made) per slice and stage, on top of the time
    // limit: tests use it to see a change through several slices at a small scale. 0: time alone.
    void setSliceLimit(long limit)
    {
        m_sliceLimit = limit;
        m_busiestSlice = 0;
    }
    // The most rows one slice of filtering went through (judged, walked, compared, placed) since
    // setSliceLimit(): with a limit set, a few limits however many rows there are, except for the
    // one walk that applies a small change row by row.
    long busiestSlice() const { return m_busiestSlice; }

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_order; }

    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // The filter last set is the one shown now.
    void filterApplied();

private:
    bool accepts(const LockFilter& filter, int sourceRow, qint64 nowMs) const;
    void startPass(bool runNow = true);
    void runSlice();
    void runStages(LockFilterPass::Slice& slice);
    bool isSmallChange() const;
    void applyIncrementally(LockFilterPass::Slice& slice);
    void applyAsReset(LockFilterPass::Slice& slice);
    void settle(std::vector<int> sourceRows);

    // Source rows first..last as the filter judges them now against where they are.
    struct Verdicts
    {
        std::vector<int> leaving;  // proxy rows of shown rows the filter now rejects
        std::vector<int> entering; // source rows not shown that it now accepts
        std::vector<int> staying;  // source rows shown and still accepted (only when asked for)
    };
    Verdicts judge(int first, int last, bool listStaying) const;

    bool less(int sourceA, int sourceB) const;
    bool isPinned(int sourceRow) const;
    void onPinnedChanged();
    void rebuild();
    void refilter();
    void removeProxyRows(std::vector<int> proxyRows);
    void insertSourceRows(std::vector<int> sourceRows);
    void reorder(const std::vector<int>& misplacedProxyRows);
    void placeAgainIfMoved(const std::vector<int>& changedSourceRows);
    void updateSourceToProxyFrom(int proxyRow);

    void onRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last);
    void onRowsRemoved(const QModelIndex& parent, int first, int last);
    void onRowsInserted(const QModelIndex& parent, int first, int last);
    void onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight);

    LockTableModel* m_model = nullptr;
    QList<QMetaObject::Connection> m_connections;
    std::vector<int> m_proxyToSource;
    std::vector<int> m_sourceToProxy; // -1: filtered out
    int m_sortColumn = -1;
    Qt::SortOrder m_order = Qt::AscendingOrder;
    LockFilter m_active; // what the rows shown pass
    LockFilter m_wanted; // what was last asked for (m_pass works it out when they differ)
    std::unique_ptr<LockFilterPass> m_pass;
    QTimer m_nextSlice;
    long m_sliceLimit = 0;
    long m_busiestSlice = 0;
    quint64 m_shownVersion = 0; // changes with every change to the shown rows or their numbers
    // accepts(), as the pass judges rows
    const LockFilterPass::Judge m_judge;
};

} // namespace lockscope
