#pragma once

#include <QAbstractProxyModel>
#include <QRegularExpression>

#include <vector>

namespace lockscope {

class LockTableModel;

// Sorting and filtering over LockTableModel that stays cheap at 100k rows. QSortFilterProxyModel
// rebuilds its whole mapping once per inserted interval, which turns a sorted batch of thousands
// of new locks into seconds of stall; here a batch is appended in one insertion and merged into
// place with one layout change, and removals touch only the rows after them. Sorting compares
// the model's raw values (the same ones its SortRole gives), never display strings.
class LockFilterProxy final : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockFilterProxy)

public:
    enum QuickFilter
    {
        NoQuickFilter = 0,
        StuckFilter = 1,
        ContestedFilter = 2,
        PartialFilter = 4,
        ExpiringSoonFilter = 8,
    };
    Q_DECLARE_FLAGS(QuickFilters, QuickFilter)

    explicit LockFilterProxy(QObject* parent = nullptr);
    ~LockFilterProxy() override;

    // Only a LockTableModel is accepted.
    void setSourceModel(QAbstractItemModel* source) override;
    LockTableModel* lockModel() const { return m_model; }

    // A glob (when it has * ? or [) matched against the whole resource, otherwise a
    // case-insensitive substring of the resource, owner or token.
    void setFilterText(const QString& text);
    const QString& filterText() const { return m_text; }
    // Any of the chosen statuses passes (none chosen: all pass).
    void setQuickFilters(QuickFilters filters);
    QuickFilters quickFilters() const { return m_quick; }
    void setExpiringSoonMs(qint64 ms);
    qint64 expiringSoonMs() const { return m_expiringSoonMs; }
    // Time moves locks into "expiring soon": the view calls this on its countdown tick.
    void recheckTimeFilters();
    bool acceptsSourceRow(int sourceRow, qint64 nowMs) const;

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

private:
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
    bool matchesText(int sourceRow) const;
    void rebuild();
    void refilter();
    void removeProxyRows(std::vector<int> proxyRows);
    void insertSourceRows(std::vector<int> sourceRows);
    void reorder(const std::vector<int>& misplacedProxyRows);
    void mergeInto(std::vector<int> sortedSourceRows, qint64 nowMs);
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
    QString m_text;
    QRegularExpression m_glob;
    QuickFilters m_quick = NoQuickFilter;
    qint64 m_expiringSoonMs = 10000;
};

} // namespace lockscope

Q_DECLARE_OPERATORS_FOR_FLAGS(lockscope::LockFilterProxy::QuickFilters)
