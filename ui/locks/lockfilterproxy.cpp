// SPDX-License-Identifier: Apache-2.0
#include "locks/lockfilterproxy.h"

#include "base/monotonicclock.h"
#include "locks/locktablemodel.h"

#include <algorithm>
#include <numeric>

namespace lockscope {

namespace {

// Up to this many new rows go straight to their places; more are appended and merged at once.
constexpr size_t maxPlacedOneByOne = 16;
// Beyond this many separate proxy ranges, one covering dataChanged is cheaper for every view.
constexpr int maxChangedRuns = 32;
// A filter change that removes this many scattered runs is cheaper as a reset (a user action,
// never a refresh).
constexpr size_t maxRemovalRuns = 512;
// A change to at most this many rows is worked out before the setter returns, however slow the
// machine (a sanitizer build, a loaded CI host): a few milliseconds in a release build, and what a
// user typing into a small table and a test reading the rows right after expect.
constexpr int maxRowsInOneGo = 20'000;
// Each removed run and each row placed one by one rewrites the mapping after it: beyond this many
// such rewrites of a row, a filter change is shown as a reset with the mapping worked out in slices.
constexpr qint64 maxIncrementalCost = 4'000'000;

std::vector<std::pair<int, int>> runsOf(const std::vector<int>& sorted)
{
    std::vector<std::pair<int, int>> runs;
    for (int row : sorted) {
        if (!runs.empty() && runs.back().second + 1 == row)
            runs.back().second = row;
        else
            runs.emplace_back(row, row);
    }
    return runs;
}

} // namespace

LockFilterProxy::LockFilterProxy(QObject* parent)
    : QAbstractProxyModel(parent), m_judge([this](const LockFilter& filter, int sourceRow, qint64 nowMs) {
          return accepts(filter, sourceRow, nowMs);
      })
{
    m_nextSlice.setSingleShot(true);
    m_nextSlice.setInterval(0);
    connect(&m_nextSlice, &QTimer::timeout, this, &LockFilterProxy::runSlice);
}

LockFilterProxy::~LockFilterProxy() = default;

void LockFilterProxy::setSourceModel(QAbstractItemModel* source)
{
    beginResetModel();
    m_pass.reset();
    m_nextSlice.stop();
    m_active = m_wanted;
    for (const QMetaObject::Connection& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_model = qobject_cast<LockTableModel*>(source);
    QAbstractProxyModel::setSourceModel(m_model);
    if (m_model) {
        m_connections
            << connect(m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this,
                       &LockFilterProxy::onRowsAboutToBeRemoved)
            << connect(m_model, &QAbstractItemModel::rowsRemoved, this, &LockFilterProxy::onRowsRemoved)
            << connect(m_model, &QAbstractItemModel::rowsInserted, this, &LockFilterProxy::onRowsInserted)
            << connect(m_model, &QAbstractItemModel::dataChanged, this, &LockFilterProxy::onDataChanged)
            << connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
                       &LockFilterProxy::beginResetModel)
            << connect(m_model, &QAbstractItemModel::modelReset, this,
                       [this] {
                           m_pass.reset();
                           m_nextSlice.stop();
                           m_active = m_wanted;
                           rebuild();
                           endResetModel();
                       })
            << connect(m_model, &LockTableModel::pinnedChanged, this, &LockFilterProxy::onPinnedChanged);
    }
    rebuild();
    endResetModel();
}

bool LockFilterProxy::isPinned(int sourceRow) const
{
    return !m_model->pinned().isEmpty() && m_model->viewAt(sourceRow).resource == m_model->pinned();
}

void LockFilterProxy::onPinnedChanged()
{
    // The pinned row passes every filter and leads whatever the sort: re-check, then re-place all.
    refilter();
    if (m_pass)
        startPass(false);
    if (m_proxyToSource.empty())
        return;
    std::vector<int> all(m_proxyToSource.size());
    std::iota(all.begin(), all.end(), 0);
    reorder(all);
}

bool LockFilterProxy::less(int sourceA, int sourceB) const
{
    if (const bool a = isPinned(sourceA); a != isPinned(sourceB))
        return a;
    if (m_sortColumn < 0)
        return sourceA < sourceB;
    return m_order == Qt::AscendingOrder ? m_model->lessThan(sourceA, sourceB, m_sortColumn)
                                         : m_model->lessThan(sourceB, sourceA, m_sortColumn);
}

bool LockFilterProxy::accepts(const LockFilter& filter, int sourceRow, qint64 nowMs) const
{
    return isPinned(sourceRow) || filter.accepts(m_model->viewAt(sourceRow), nowMs);
}

bool LockFilterProxy::acceptsSourceRow(int sourceRow, qint64 nowMs) const
{
    return accepts(m_active, sourceRow, nowMs);
}

void LockFilterProxy::rebuild()
{
    ++m_shownVersion;
    m_proxyToSource.clear();
    m_sourceToProxy.assign(size_t(m_model ? m_model->rowCount() : 0), -1);
    if (!m_model)
        return;
    const qint64 now = monotonicMs();
    for (int s = 0; s < m_model->rowCount(); ++s)
        if (acceptsSourceRow(s, now))
            m_proxyToSource.push_back(s);
    std::stable_sort(m_proxyToSource.begin(), m_proxyToSource.end(),
                     [this](int a, int b) { return less(a, b); });
    updateSourceToProxyFrom(0);
}

void LockFilterProxy::updateSourceToProxyFrom(int proxyRow)
{
    for (size_t p = size_t(proxyRow); p < m_proxyToSource.size(); ++p)
        m_sourceToProxy[size_t(m_proxyToSource[p])] = int(p);
}

void LockFilterProxy::setFilterText(const QString& text)
{
    if (text == m_wanted.text())
        return;
    m_wanted.setText(text);
    startPass();
}

void LockFilterProxy::setQuickFilters(QuickFilters filters)
{
    if (filters == m_wanted.quickFilters())
        return;
    m_wanted.setQuickFilters(filters);
    startPass();
}

void LockFilterProxy::setExpiringSoonMs(qint64 ms)
{
    m_wanted.setExpiringSoonMs(ms);
    if (m_wanted.quickFilters().testFlag(ExpiringSoonFilter))
        startPass();
    else if (!m_pass)
        m_active.setExpiringSoonMs(ms); // shows no different
}

void LockFilterProxy::recheckTimeFilters()
{
    // A pass under way judges with the clock as it goes; starting over would never let it end.
    if (m_wanted.quickFilters().testFlag(ExpiringSoonFilter) && !m_pass)
        startPass();
}

// Starts working out m_wanted (dropping a pass for an earlier wish), with a first slice right away
// unless called from a source model's signal.
void LockFilterProxy::startPass(bool runNow)
{
    m_nextSlice.stop();
    if (!m_model) {
        m_active = m_wanted;
        return;
    }
    const bool inOneGo = runNow && m_sliceLimit <= 0 && m_model->rowCount() <= maxRowsInOneGo;
    m_pass = std::make_unique<LockFilterPass>(m_wanted, m_model->rowCount(), inOneGo);
    if (runNow)
        runSlice();
    else
        m_nextSlice.start();
}

void LockFilterProxy::runSlice()
{
    if (!m_pass)
        return;
    LockFilterPass::Slice slice;
    slice.clock.start();
    slice.limit = m_sliceLimit;
    runStages(slice);
    m_busiestSlice = std::max(m_busiestSlice, slice.work);
}

void LockFilterProxy::runStages(LockFilterPass::Slice& slice)
{
    LockFilterPass& p = *m_pass;
    if (p.stage == LockFilterPass::Stage::Judging || p.stage == LockFilterPass::Stage::Weighing) {
        if (!p.judgeAndWeigh(slice, m_model->rowCount(), m_judge, m_proxyToSource, m_sourceToProxy,
                             m_shownVersion)) {
            m_nextSlice.start();
            return;
        }
        if (isSmallChange()) {
            applyIncrementally(slice);
            return;
        }
        p.beginSorting();
    }
    if (!p.sortAndPlace(slice, [this](int a, int b) { return less(a, b); })) {
        m_nextSlice.start();
        return;
    }
    applyAsReset(slice);
}

// Whether the rows the pass drops and adds are few enough to announce one range at a time (which
// keeps the view's scroll position and every persistent index).
bool LockFilterProxy::isSmallChange() const
{
    // Placing the rows that come in sorts them: a comparison costs about as much as a thousand
    // rewritten entries.
    const qint64 rows = qMax<qint64>(1, qint64(m_pass->accepted.size()));
    const qint64 entering = m_pass->entering;
    const qint64 runs = qint64(m_pass->leavingRuns);
    const qint64 rewrites = runs + qMin<qint64>(entering, qint64(maxPlacedOneByOne) + 1);
    return runs <= qint64(maxRemovalRuns) && rewrites * rows + entering * 1000 <= maxIncrementalCost;
}

// The rows weighed leave and come in one range at a time; rows whose verdict changed since follow.
void LockFilterProxy::applyIncrementally(LockFilterPass::Slice& slice)
{
    const std::unique_ptr<LockFilterPass> p = std::move(m_pass);
    auto [leaving, entering] = p->takeChange(slice, m_proxyToSource, m_sourceToProxy, m_shownVersion);
    m_active = p->filter;
    removeProxyRows(std::move(leaving));
    insertSourceRows(std::move(entering));
    slice.work += long(p->touched.size());
    settle(std::move(p->touched));
    emit filterApplied();
}

// The order and map laid out while placing replace the shown ones in one reset; rows whose verdict or
// sort key changed meanwhile (and rows added meanwhile) follow as ordinary changes.
void LockFilterProxy::applyAsReset(LockFilterPass::Slice& slice)
{
    const std::unique_ptr<LockFilterPass> p = std::move(m_pass);
    std::vector<int> sourceToProxy = p->placement.takeSourceToProxy();
    sourceToProxy.resize(size_t(m_model->rowCount()), -1);
    beginResetModel();
    ++m_shownVersion;
    m_active = p->filter;
    m_proxyToSource = p->placement.takeOrder();
    m_sourceToProxy = std::move(sourceToProxy);
    endResetModel();
    std::vector<int> unsure = std::move(p->touched);
    const bool keyMayMove = m_sortColumn >= 0 && m_sortColumn != LockTableModel::ResourceColumn;
    if (keyMayMove && !unsure.empty()) {
        const std::vector<int> late = p->placement.takePlacedBySearch();
        unsure.insert(unsure.end(), late.begin(), late.end());
    }
    slice.work += long(unsure.size());
    settle(std::move(unsure));
    emit filterApplied();
}

void LockFilterProxy::settle(std::vector<int> sourceRows)
{
    std::sort(sourceRows.begin(), sourceRows.end());
    sourceRows.erase(std::unique(sourceRows.begin(), sourceRows.end()), sourceRows.end());
    Verdicts all;
    for (const auto& [first, last] : runsOf(sourceRows)) {
        Verdicts v = judge(first, last, true);
        all.leaving.insert(all.leaving.end(), v.leaving.begin(), v.leaving.end());
        all.entering.insert(all.entering.end(), v.entering.begin(), v.entering.end());
        all.staying.insert(all.staying.end(), v.staying.begin(), v.staying.end());
    }
    removeProxyRows(std::move(all.leaving));
    placeAgainIfMoved(all.staying);
    insertSourceRows(std::move(all.entering));
}

LockFilterProxy::Verdicts LockFilterProxy::judge(int first, int last, bool listStaying) const
{
    const qint64 now = monotonicMs();
    Verdicts v;
    for (int s = first; s <= last; ++s) {
        const bool accepted = acceptsSourceRow(s, now);
        const int p = m_sourceToProxy[size_t(s)];
        if (p >= 0 && !accepted)
            v.leaving.push_back(p);
        else if (p < 0 && accepted)
            v.entering.push_back(s);
        else if (p >= 0 && listStaying)
            v.staying.push_back(s);
    }
    return v;
}

void LockFilterProxy::refilter()
{
    if (!m_model)
        return;
    auto [leaving, entering, staying] = judge(0, m_model->rowCount() - 1, false);
    std::sort(leaving.begin(), leaving.end());
    if (runsOf(leaving).size() > maxRemovalRuns) {
        beginResetModel();
        rebuild();
        endResetModel();
        return;
    }
    removeProxyRows(std::move(leaving));
    insertSourceRows(std::move(entering));
}

void LockFilterProxy::removeProxyRows(std::vector<int> proxyRows)
{
    if (proxyRows.empty())
        return;
    ++m_shownVersion;
    // Often a whole filter's worth of rows, listed in order already.
    if (!std::is_sorted(proxyRows.begin(), proxyRows.end()))
        std::sort(proxyRows.begin(), proxyRows.end());
    const auto runs = runsOf(proxyRows);
    for (auto it = runs.crbegin(); it != runs.crend(); ++it) {
        const auto [first, last] = *it;
        beginRemoveRows({}, first, last);
        for (int p = first; p <= last; ++p)
            m_sourceToProxy[size_t(m_proxyToSource[size_t(p)])] = -1;
        m_proxyToSource.erase(m_proxyToSource.begin() + first, m_proxyToSource.begin() + last + 1);
        updateSourceToProxyFrom(first);
        endRemoveRows();
    }
}

void LockFilterProxy::insertSourceRows(std::vector<int> sourceRows)
{
    if (sourceRows.empty())
        return;
    ++m_shownVersion;
    std::stable_sort(sourceRows.begin(), sourceRows.end(), [this](int a, int b) { return less(a, b); });
    if (sourceRows.size() <= maxPlacedOneByOne) {
        for (int s : sourceRows) {
            const auto at = std::upper_bound(m_proxyToSource.begin(), m_proxyToSource.end(), s,
                                             [this](int a, int b) { return less(a, b); });
            const int p = int(at - m_proxyToSource.begin());
            beginInsertRows({}, p, p);
            m_proxyToSource.insert(at, s);
            updateSourceToProxyFrom(p);
            endInsertRows();
        }
        return;
    }
    // One insertion at the end, then (only if they do not already belong there) one merge.
    const int first = int(m_proxyToSource.size());
    beginInsertRows({}, first, first + int(sourceRows.size()) - 1);
    m_proxyToSource.insert(m_proxyToSource.end(), sourceRows.begin(), sourceRows.end());
    updateSourceToProxyFrom(first);
    endInsertRows();
    if (first > 0 && less(sourceRows.front(), m_proxyToSource[size_t(first - 1)])) {
        std::vector<int> moved(size_t(m_proxyToSource.size()) - size_t(first));
        std::iota(moved.begin(), moved.end(), first);
        reorder(moved);
    }
}

// Takes the given rows out of the order and merges them back where they belong, as one layout
// change that keeps every persistent index (selection, current row) on its row.
void LockFilterProxy::reorder(const std::vector<int>& misplacedProxyRows)
{
    if (misplacedProxyRows.empty())
        return;
    ++m_shownVersion;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::pair<int, int>> sourceOf; // (source row, column) for each persistent index
    sourceOf.reserve(size_t(before.size()));
    for (const QModelIndex& i : before)
        sourceOf.emplace_back(m_proxyToSource[size_t(i.row())], i.column());

    std::vector<bool> misplaced(m_proxyToSource.size(), false);
    for (int p : misplacedProxyRows)
        misplaced[size_t(p)] = true;
    std::vector<int> moving;
    moving.reserve(misplacedProxyRows.size());
    std::vector<int> staying;
    staying.reserve(m_proxyToSource.size());
    for (size_t p = 0; p < m_proxyToSource.size(); ++p)
        (misplaced[p] ? moving : staying).push_back(m_proxyToSource[p]);
    auto byOrder = [this](int a, int b) { return less(a, b); };
    std::stable_sort(moving.begin(), moving.end(), byOrder);
    // Comparisons read locks (byte strings) and cost far more than moving ints: place each moving
    // row by binary search, O(k log n) comparisons, and copy the runs in between.
    m_proxyToSource.clear();
    auto from = staying.begin();
    for (int s : moving) {
        const auto at = std::upper_bound(from, staying.end(), s, byOrder);
        m_proxyToSource.insert(m_proxyToSource.end(), from, at);
        m_proxyToSource.push_back(s);
        from = at;
    }
    m_proxyToSource.insert(m_proxyToSource.end(), from, staying.end());
    updateSourceToProxyFrom(0);

    QModelIndexList after;
    after.reserve(before.size());
    for (const auto& [source, column] : sourceOf)
        after << createIndex(m_sourceToProxy[size_t(source)], column);
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void LockFilterProxy::sort(int column, Qt::SortOrder order)
{
    if (column == m_sortColumn && order == m_order)
        return;
    m_sortColumn = column;
    m_order = order;
    if (m_pass)
        startPass(false); // what it sorted so far is in the old order
    if (!m_model || m_proxyToSource.empty())
        return;
    std::vector<int> all(m_proxyToSource.size());
    std::iota(all.begin(), all.end(), 0);
    reorder(all);
}

void LockFilterProxy::onRowsAboutToBeRemoved(const QModelIndex&, int first, int last)
{
    std::vector<int> proxyRows;
    for (int s = first; s <= last; ++s)
        if (const int p = m_sourceToProxy[size_t(s)]; p >= 0)
            proxyRows.push_back(p);
    removeProxyRows(std::move(proxyRows));
}

void LockFilterProxy::onRowsRemoved(const QModelIndex&, int first, int last)
{
    const int count = last - first + 1;
    ++m_shownVersion;
    for (int& s : m_proxyToSource)
        if (s > last)
            s -= count;
    m_sourceToProxy.erase(m_sourceToProxy.begin() + first, m_sourceToProxy.begin() + last + 1);
    if (m_pass)
        m_pass->rowsRemoved(first, last, m_shownVersion);
}

void LockFilterProxy::onRowsInserted(const QModelIndex&, int first, int last)
{
    const int count = last - first + 1;
    ++m_shownVersion;
    if (first < int(m_sourceToProxy.size()))
        for (int& s : m_proxyToSource)
            if (s >= first)
                s += count;
    m_sourceToProxy.insert(m_sourceToProxy.begin() + first, size_t(count), -1);
    const qint64 now = monotonicMs();
    std::vector<int> accepted;
    for (int s = first; s <= last; ++s)
        if (acceptsSourceRow(s, now))
            accepted.push_back(s);
    insertSourceRows(std::move(accepted));
    if (m_pass) {
        if (first < int(m_pass->accepted.size()))
            startPass(false); // its rows are numbered as they were
        else
            m_pass->rowsAppended(first, last, m_model->rowCount(), now, m_judge);
    }
}

// Shown source rows whose sort key may have changed: merged back in if any of them moved.
void LockFilterProxy::placeAgainIfMoved(const std::vector<int>& changedSourceRows)
{
    // A row's resource is what makes it that row: sorted by resource, a change never moves it.
    if (m_sortColumn < 0 || m_sortColumn == LockTableModel::ResourceColumn)
        return;
    // Unchanged rows are in order among themselves, so checking every pair that has a changed row
    // tells whether anything moved; if so all changed rows are merged back in.
    bool moved = false;
    const int n = int(m_proxyToSource.size());
    for (size_t i = 0; i < changedSourceRows.size() && !moved; ++i) {
        const int s = changedSourceRows[i];
        const int p = m_sourceToProxy[size_t(s)];
        moved = (p > 0 && less(s, m_proxyToSource[size_t(p - 1)])) ||
                (p + 1 < n && less(m_proxyToSource[size_t(p + 1)], s));
    }
    if (!moved)
        return;
    std::vector<int> changedRows;
    changedRows.reserve(changedSourceRows.size());
    for (int s : changedSourceRows)
        changedRows.push_back(m_sourceToProxy[size_t(s)]);
    reorder(changedRows);
}

void LockFilterProxy::onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight)
{
    if (m_pass) {
        const bool keyMayMove = m_sortColumn >= 0 && m_sortColumn != LockTableModel::ResourceColumn;
        m_pass->rowsChanged(topLeft.row(), bottomRight.row(), keyMayMove, monotonicMs(), m_judge);
    }
    auto [leaving, entering, staying] = judge(topLeft.row(), bottomRight.row(), true);
    removeProxyRows(std::move(leaving));

    placeAgainIfMoved(staying);
    insertSourceRows(std::move(entering));

    std::vector<int> proxyRows;
    proxyRows.reserve(staying.size());
    for (int s : staying)
        proxyRows.push_back(m_sourceToProxy[size_t(s)]);
    if (proxyRows.empty())
        return;
    std::sort(proxyRows.begin(), proxyRows.end());
    const auto runs = runsOf(proxyRows);
    if (runs.size() > size_t(maxChangedRuns) || proxyRows.size() * 2 > m_proxyToSource.size()) {
        emit dataChanged(index(proxyRows.front(), topLeft.column()),
                         index(proxyRows.back(), bottomRight.column()));
        return;
    }
    for (const auto& [first, last] : runs)
        emit dataChanged(index(first, topLeft.column()), index(last, bottomRight.column()));
}

QModelIndex LockFilterProxy::mapToSource(const QModelIndex& proxyIndex) const
{
    if (!m_model || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    const int row = proxyIndex.row();
    if (row < 0 || size_t(row) >= m_proxyToSource.size())
        return {};
    return m_model->index(m_proxyToSource[size_t(row)], proxyIndex.column());
}

QModelIndex LockFilterProxy::mapFromSource(const QModelIndex& sourceIndex) const
{
    if (!m_model || !sourceIndex.isValid() || size_t(sourceIndex.row()) >= m_sourceToProxy.size())
        return {};
    const int p = m_sourceToProxy[size_t(sourceIndex.row())];
    return p < 0 ? QModelIndex() : createIndex(p, sourceIndex.column());
}

QModelIndex LockFilterProxy::index(int row, int column, const QModelIndex& parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex LockFilterProxy::parent(const QModelIndex&) const
{
    return {};
}

int LockFilterProxy::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_proxyToSource.size());
}

int LockFilterProxy::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_model ? 0 : m_model->columnCount();
}

bool LockFilterProxy::hasChildren(const QModelIndex& parent) const
{
    return !parent.isValid() && rowCount() > 0;
}

QVariant LockFilterProxy::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_model)
        return {};
    if (orientation == Qt::Horizontal)
        return m_model->headerData(section, orientation, role);
    return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
}

} // namespace lockscope
