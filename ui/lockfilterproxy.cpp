#include "lockfilterproxy.h"

#include "base/monotonicclock.h"
#include "locktablemodel.h"
#include "slicedsort.h"

#include <algorithm>
#include <climits>
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
// A slice of filtering gives the event loop back after this long (a 60 Hz frame is 16 ms).
constexpr qint64 sliceNs = 6'000'000;
// Rows judged (comparisons made) between looks at the clock.
constexpr long rowsPerLook = 512;
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

// A filter change being worked out: each row's verdict, then the order of the rows it lets in.
struct LockFilterProxy::Pass
{
    Filter filter;
    bool sorting = false;       // false: judging rows, true: sorting the accepted ones
    int cursor = 0;             // judging: the next source row
    std::vector<char> accepted; // the verdict of each source row judged (kept current on changes)
    SlicedSort sort;
    std::vector<int> misplaced; // rows whose sort key changed while sorting
};

LockFilterProxy::LockFilterProxy(QObject* parent) : QAbstractProxyModel(parent)
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

bool LockFilterProxy::matchesText(const Filter& filter, int sourceRow) const
{
    const LockView& v = m_model->viewAt(sourceRow);
    const QString resource = QString::fromUtf8(v.resource);
    if (filter.glob.isValid() && !filter.glob.pattern().isEmpty())
        return filter.glob.match(resource).hasMatch();
    return resource.contains(filter.text, Qt::CaseInsensitive) ||
           v.owner.contains(filter.text, Qt::CaseInsensitive) ||
           QString::fromUtf8(v.token).contains(filter.text, Qt::CaseInsensitive);
}

bool LockFilterProxy::accepts(const Filter& filter, int sourceRow, qint64 nowMs) const
{
    if (isPinned(sourceRow))
        return true;
    const LockView& v = m_model->viewAt(sourceRow);
    if (const QuickFilters quick = filter.quick; quick != NoQuickFilter) {
        const qint64 left = v.validityAt(nowMs);
        const bool pass = (quick.testFlag(StuckFilter) && v.status == LockStatus::Stuck) ||
                          (quick.testFlag(ContestedFilter) && v.status == LockStatus::Contested) ||
                          (quick.testFlag(PartialFilter) && v.status == LockStatus::Partial) ||
                          (quick.testFlag(ExpiringSoonFilter) && left >= 0 && left <= filter.expiringSoonMs);
        if (!pass)
            return false;
    }
    return filter.text.isEmpty() || matchesText(filter, sourceRow);
}

bool LockFilterProxy::acceptsSourceRow(int sourceRow, qint64 nowMs) const
{
    return accepts(m_active, sourceRow, nowMs);
}

void LockFilterProxy::rebuild()
{
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
    if (text == m_wanted.text)
        return;
    m_wanted.text = text;
    const bool glob =
        text.contains(QLatin1Char('*')) || text.contains(QLatin1Char('?')) || text.contains(QLatin1Char('['));
    m_wanted.glob = glob ? QRegularExpression::fromWildcard(text, Qt::CaseInsensitive) : QRegularExpression();
    startPass();
}

void LockFilterProxy::setQuickFilters(QuickFilters filters)
{
    if (filters == m_wanted.quick)
        return;
    m_wanted.quick = filters;
    startPass();
}

void LockFilterProxy::setExpiringSoonMs(qint64 ms)
{
    m_wanted.expiringSoonMs = ms;
    if (m_wanted.quick.testFlag(ExpiringSoonFilter))
        startPass();
    else if (!m_pass)
        m_active.expiringSoonMs = ms; // shows no different
}

void LockFilterProxy::recheckTimeFilters()
{
    // A pass under way judges with the clock as it goes; starting over would never let it end.
    if (m_wanted.quick.testFlag(ExpiringSoonFilter) && !m_pass)
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
    m_pass = std::make_unique<Pass>();
    m_pass->filter = m_wanted;
    m_pass->accepted.assign(size_t(m_model->rowCount()), 0);
    if (runNow)
        runSlice();
    else
        m_nextSlice.start();
}

void LockFilterProxy::runSlice()
{
    if (!m_pass)
        return;
    QElapsedTimer clock;
    clock.start();
    if (!m_pass->sorting && !judgeSlice(clock)) {
        m_nextSlice.start();
        return;
    }
    if (!m_pass->sorting) {
        if (isSmallChange()) {
            applyIncrementally();
            return;
        }
        beginSorting();
    }
    if (!sortSlice(clock)) {
        m_nextSlice.start();
        return;
    }
    applyAsReset();
}

// Rows that stay keep their order among themselves: only the ones coming in are sorted, then
// merged with them.
void LockFilterProxy::beginSorting()
{
    std::vector<int> rows;
    rows.reserve(m_proxyToSource.size());
    for (int s : m_proxyToSource)
        if (m_pass->accepted[size_t(s)])
            rows.push_back(s);
    const size_t staying = rows.size();
    for (size_t s = 0; s < m_pass->accepted.size(); ++s)
        if (m_pass->accepted[s] && m_sourceToProxy[s] < 0)
            rows.push_back(int(s));
    m_pass->sort.start(std::move(rows), staying);
    m_pass->misplaced.clear();
    m_pass->sorting = true;
}

// Judges rows until all are or the slice is used up; true when all are.
bool LockFilterProxy::judgeSlice(const QElapsedTimer& clock)
{
    Pass& p = *m_pass;
    const qint64 now = monotonicMs();
    long budget = m_sliceLimit > 0 ? m_sliceLimit : LONG_MAX;
    const int n = m_model->rowCount();
    while (p.cursor < n) {
        if (budget <= 0 || clock.nsecsElapsed() > sliceNs)
            return false;
        const int end = int(std::min<long>(long(n), long(p.cursor) + std::min(rowsPerLook, budget)));
        budget -= end - p.cursor;
        for (; p.cursor < end; ++p.cursor)
            p.accepted[size_t(p.cursor)] = accepts(p.filter, p.cursor, now) ? 1 : 0;
    }
    return true;
}

bool LockFilterProxy::sortSlice(const QElapsedTimer& clock)
{
    const SlicedSort::Less less = [this](int a, int b) { return this->less(a, b); };
    long budget = m_sliceLimit > 0 ? m_sliceLimit : LONG_MAX;
    while (!m_pass->sort.isDone()) {
        if (budget <= 0 || clock.nsecsElapsed() > sliceNs)
            return false;
        const long step = std::min(budget, rowsPerLook);
        budget -= step;
        m_pass->sort.step(less, step);
    }
    return true;
}

// Whether the rows the pass drops and adds are few enough to announce one range at a time (which
// keeps the view's scroll position and every persistent index).
bool LockFilterProxy::isSmallChange() const
{
    const std::vector<char>& accepted = m_pass->accepted;
    size_t runs = 0;
    int last = -2;
    for (size_t p = 0; p < m_proxyToSource.size(); ++p)
        if (!accepted[size_t(m_proxyToSource[p])]) {
            runs += int(p) != last + 1 ? 1 : 0;
            last = int(p);
        }
    qint64 entering = 0;
    for (size_t s = 0; s < accepted.size(); ++s)
        entering += accepted[s] && m_sourceToProxy[s] < 0 ? 1 : 0;
    // Placing the rows that come in sorts them: a comparison costs about as much as a thousand
    // rewritten entries.
    const qint64 rows = qMax<qint64>(1, qint64(accepted.size()));
    const qint64 rewrites = qint64(runs) + qMin<qint64>(entering, qint64(maxPlacedOneByOne) + 1);
    return runs <= maxRemovalRuns && rewrites * rows + entering * 1000 <= maxIncrementalCost;
}

void LockFilterProxy::applyIncrementally()
{
    const std::unique_ptr<Pass> p = std::move(m_pass);
    std::vector<int> leaving;
    for (size_t row = 0; row < m_proxyToSource.size(); ++row)
        if (!p->accepted[size_t(m_proxyToSource[row])])
            leaving.push_back(int(row));
    std::vector<int> entering;
    for (size_t s = 0; s < p->accepted.size(); ++s)
        if (p->accepted[s] && m_sourceToProxy[s] < 0)
            entering.push_back(int(s));
    m_active = p->filter;
    removeProxyRows(std::move(leaving));
    insertSourceRows(std::move(entering));
    emit filterApplied();
}

// The sorted rows replace the shown ones in one reset. Rows whose verdict or sort key changed
// while the pass sorted (and rows added meanwhile) are placed now by binary search.
void LockFilterProxy::applyAsReset()
{
    const std::unique_ptr<Pass> p = std::move(m_pass);
    const std::vector<char>& accepted = p->accepted;
    const size_t n = accepted.size();
    std::vector<char> placed(n, 0);
    for (int s : p->misplaced)
        placed[size_t(s)] = 2; // taken out, placed again below
    std::vector<int> rows;
    rows.reserve(n);
    for (int s : p->sort.take()) {
        if (accepted[size_t(s)] && placed[size_t(s)] == 0) {
            // A key that changed mid-sort may have left its neighbours out of order: whatever is not
            // in order behind the last row kept is placed again too.
            if (!p->misplaced.empty() && !rows.empty() && less(s, rows.back()))
                continue;
            rows.push_back(s);
            placed[size_t(s)] = 1;
        }
    }
    std::vector<int> late;
    for (size_t s = 0; s < n; ++s)
        if (accepted[s] && placed[s] != 1)
            late.push_back(int(s));
    auto byOrder = [this](int a, int b) { return less(a, b); };
    std::stable_sort(late.begin(), late.end(), byOrder);
    std::vector<int> merged;
    merged.reserve(rows.size() + late.size());
    auto from = rows.begin();
    for (int s : late) {
        const auto at = std::upper_bound(from, rows.end(), s, byOrder);
        merged.insert(merged.end(), from, at);
        merged.push_back(s);
        from = at;
    }
    merged.insert(merged.end(), from, rows.end());

    beginResetModel();
    m_active = p->filter;
    m_proxyToSource = std::move(merged);
    m_sourceToProxy.assign(n, -1);
    updateSourceToProxyFrom(0);
    endResetModel();
    emit filterApplied();
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
    for (int& s : m_proxyToSource)
        if (s > last)
            s -= count;
    m_sourceToProxy.erase(m_sourceToProxy.begin() + first, m_sourceToProxy.begin() + last + 1);
    if (m_pass) {
        // Locks come and go all the time: the verdicts so far are kept (renumbered), only a sort
        // under way starts again, over the rows as numbered now.
        Pass& p = *m_pass;
        p.accepted.erase(p.accepted.begin() + first, p.accepted.begin() + last + 1);
        if (p.cursor > first)
            p.cursor = qMax(first, p.cursor - count);
        if (p.sorting)
            beginSorting();
    }
}

void LockFilterProxy::onRowsInserted(const QModelIndex&, int first, int last)
{
    const int count = last - first + 1;
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
        if (first < int(m_pass->accepted.size())) {
            startPass(false); // its rows are numbered as they were
        } else {
            // Appended rows: judging reaches them in turn; once sorting, they are judged now and
            // placed when the pass ends.
            m_pass->accepted.resize(size_t(m_model->rowCount()), 0);
            if (m_pass->sorting)
                for (int s = first; s <= last; ++s)
                    m_pass->accepted[size_t(s)] = accepts(m_pass->filter, s, now) ? 1 : 0;
        }
    }
}

void LockFilterProxy::onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight)
{
    if (m_pass) {
        // The pass's verdicts follow the change; a row whose key moved while sorting is placed again.
        Pass& p = *m_pass;
        const qint64 now = monotonicMs();
        const bool keyMayMove = m_sortColumn >= 0 && m_sortColumn != LockTableModel::ResourceColumn;
        const int judged = p.sorting ? bottomRight.row() : qMin(bottomRight.row(), p.cursor - 1);
        for (int s = topLeft.row(); s <= judged; ++s) {
            p.accepted[size_t(s)] = accepts(p.filter, s, now) ? 1 : 0;
            if (p.sorting && keyMayMove)
                p.misplaced.push_back(s);
        }
    }
    auto [leaving, entering, staying] = judge(topLeft.row(), bottomRight.row(), true);
    removeProxyRows(std::move(leaving));

    // A row's resource is what makes it that row: sorted by resource, a change never moves it.
    if (m_sortColumn >= 0 && m_sortColumn != LockTableModel::ResourceColumn) {
        // Unchanged rows are in order among themselves, so checking every pair that has a changed row
        // tells whether anything moved; if so all changed rows are merged back in.
        bool moved = false;
        const int n = int(m_proxyToSource.size());
        for (size_t i = 0; i < staying.size() && !moved; ++i) {
            const int s = staying[i];
            const int p = m_sourceToProxy[size_t(s)];
            moved = (p > 0 && less(s, m_proxyToSource[size_t(p - 1)])) ||
                    (p + 1 < n && less(m_proxyToSource[size_t(p + 1)], s));
        }
        if (moved) {
            std::vector<int> changedRows;
            changedRows.reserve(staying.size());
            for (int s : staying)
                changedRows.push_back(m_sourceToProxy[size_t(s)]);
            reorder(changedRows);
        }
    }
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
