#include "locks/lockfilterproxy.h"

#include "base/monotonicclock.h"
#include "locks/locktablemodel.h"
#include "locks/slicedplacement.h"
#include "locks/slicedsort.h"

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

// A filter change being worked out: each row's verdict, then the order of the rows it lets in,
// then that order and its map laid out for the swap.
struct LockFilterProxy::Pass
{
    enum class Stage
    {
        Judging,
        Weighing, // what the change drops and adds, and the rows to sort
        Sorting,
        Placing,
    };
    Filter filter;
    bool inOneGo = false; // a small model's change: no time limit, done before the setter returns
    Stage stage = Stage::Judging;
    int cursor = 0;              // judging: the next source row
    std::vector<char> accepted;  // the verdict of each source row judged (kept current on changes)
    bool weighingSource = false; // weighing: false over the shown rows, true over the source rows
    size_t weighAt = 0;          // weighing: the next shown or source row
    quint64 shownVersion = 0;    // of the shown rows weighed
    std::vector<int> leaving;    // the shown rows the change drops
    size_t leavingRuns = 0;      // how many runs they make
    int lastLeaving = -2;
    qint64 entering = 0;     // source rows not shown it lets in
    std::vector<int> toSort; // the shown rows it keeps (in order), then those it lets in
    size_t shownToSort = 0;  // how many of toSort are shown ones
    SlicedSort sort;
    std::vector<int> misplaced; // rows whose sort key changed while sorting
    SlicedPlacement placement;
    // Rows whose verdict changed while weighing, or verdict or key while placing: settled once the
    // result is shown.
    std::vector<int> touched;
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
    m_pass->inOneGo = runNow && m_sliceLimit <= 0 && m_model->rowCount() <= maxRowsInOneGo;
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
    m_sliceWork = 0;
    runStages(clock);
    m_busiestSlice = std::max(m_busiestSlice, m_sliceWork);
}

void LockFilterProxy::runStages(const QElapsedTimer& clock)
{
    if (m_pass->stage == Pass::Stage::Judging) {
        if (!judgeSlice(clock)) {
            m_nextSlice.start();
            return;
        }
        beginWeighing();
    }
    if (m_pass->stage == Pass::Stage::Weighing) {
        if (!weighSlice(clock)) {
            m_nextSlice.start();
            return;
        }
        if (isSmallChange()) {
            applyIncrementally();
            return;
        }
        beginSorting();
    }
    if (m_pass->stage == Pass::Stage::Sorting) {
        if (!sortSlice(clock)) {
            m_nextSlice.start();
            return;
        }
        m_pass->placement.start(m_pass->sort.take(), m_pass->misplaced, m_pass->accepted.size());
        m_pass->misplaced.clear();
        m_pass->stage = Pass::Stage::Placing;
    }
    if (!placeSlice(clock)) {
        m_nextSlice.start();
        return;
    }
    applyAsReset();
}

// Judging is done (or the rows were renumbered since): the shown rows are walked, then the source
// rows, a slice at a time.
void LockFilterProxy::beginWeighing()
{
    Pass& p = *m_pass;
    p.stage = Pass::Stage::Weighing;
    p.weighingSource = false;
    p.weighAt = 0;
    p.shownVersion = m_shownVersion;
    p.leaving.clear();
    p.leavingRuns = 0;
    p.lastLeaving = -2;
    p.entering = 0;
    p.toSort.clear();
    p.shownToSort = 0;
    p.misplaced.clear();
    p.touched.clear();
}

// Counts the runs of shown rows the change drops and the rows it lets in, listing the rows to sort.
// Rows that stay keep their order among themselves: only the ones coming in are sorted, then merged
// with them. Shown rows may move between slices; a row listed twice or missed is put right when
// the sorted rows are placed (see SlicedPlacement).
bool LockFilterProxy::weighSlice(const QElapsedTimer& clock)
{
    Pass& p = *m_pass;
    long budget = m_sliceLimit > 0 ? m_sliceLimit : LONG_MAX;
    for (;;) {
        if (sliceUsedUp(clock, budget))
            return false;
        const size_t step = size_t(std::min(budget, rowsPerLook));
        budget -= long(step);
        m_sliceWork += long(step);
        if (!p.weighingSource) {
            const size_t end = std::min(m_proxyToSource.size(), p.weighAt + step);
            for (; p.weighAt < end; ++p.weighAt) {
                const int s = m_proxyToSource[p.weighAt];
                if (p.accepted[size_t(s)]) {
                    p.toSort.push_back(s);
                } else {
                    p.leaving.push_back(int(p.weighAt));
                    p.leavingRuns += int(p.weighAt) != p.lastLeaving + 1 ? 1 : 0;
                    p.lastLeaving = int(p.weighAt);
                }
            }
            if (p.weighAt >= m_proxyToSource.size()) {
                p.weighingSource = true;
                p.weighAt = 0;
                p.shownToSort = p.toSort.size();
            }
            continue;
        }
        const size_t end = std::min(p.accepted.size(), p.weighAt + step);
        for (; p.weighAt < end; ++p.weighAt)
            if (p.accepted[p.weighAt] && m_sourceToProxy[p.weighAt] < 0) {
                ++p.entering;
                p.toSort.push_back(int(p.weighAt));
            }
        if (p.weighAt >= p.accepted.size())
            return true;
    }
}

void LockFilterProxy::beginSorting()
{
    Pass& p = *m_pass;
    p.sort.start(std::move(p.toSort), p.shownToSort);
    p.toSort = {};
    p.leaving = {};
    p.touched.clear(); // placing takes each row's verdict as it is by then
    p.stage = Pass::Stage::Sorting;
}

// Judges rows until all are or the slice is used up; true when all are.
bool LockFilterProxy::judgeSlice(const QElapsedTimer& clock)
{
    Pass& p = *m_pass;
    const qint64 now = monotonicMs();
    long budget = m_sliceLimit > 0 ? m_sliceLimit : LONG_MAX;
    const int n = m_model->rowCount();
    while (p.cursor < n) {
        if (sliceUsedUp(clock, budget))
            return false;
        const int end = int(std::min<long>(long(n), long(p.cursor) + std::min(rowsPerLook, budget)));
        budget -= end - p.cursor;
        m_sliceWork += end - p.cursor;
        for (; p.cursor < end; ++p.cursor)
            p.accepted[size_t(p.cursor)] = accepts(p.filter, p.cursor, now) ? 1 : 0;
    }
    return true;
}

bool LockFilterProxy::sliceUsedUp(const QElapsedTimer& clock, long budget) const
{
    return budget <= 0 || (!m_pass->inOneGo && clock.nsecsElapsed() > sliceNs);
}

bool LockFilterProxy::stepWithinSlice(const QElapsedTimer& clock, const std::function<bool()>& done,
                                      const std::function<void(long)>& step)
{
    long budget = m_sliceLimit > 0 ? m_sliceLimit : LONG_MAX;
    while (!done()) {
        if (sliceUsedUp(clock, budget))
            return false;
        const long rows = std::min(budget, rowsPerLook);
        budget -= rows;
        m_sliceWork += rows;
        step(rows);
    }
    return true;
}

bool LockFilterProxy::sortSlice(const QElapsedTimer& clock)
{
    const SlicedSort::Less less = [this](int a, int b) { return this->less(a, b); };
    return stepWithinSlice(
        clock, [this] { return m_pass->sort.isDone(); }, [&](long rows) { m_pass->sort.step(less, rows); });
}

bool LockFilterProxy::placeSlice(const QElapsedTimer& clock)
{
    const SlicedPlacement::Less less = [this](int a, int b) { return this->less(a, b); };
    return stepWithinSlice(
        clock, [this] { return m_pass->placement.isDone(); },
        [&](long rows) { m_pass->placement.step(m_pass->accepted, less, rows); });
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
void LockFilterProxy::applyIncrementally()
{
    const std::unique_ptr<Pass> p = std::move(m_pass);
    std::vector<int> leaving = std::move(p->leaving);
    std::vector<int> entering(p->toSort.begin() + long(p->shownToSort), p->toSort.end());
    if (p->shownVersion != m_shownVersion) {
        // The shown rows changed while being weighed: the lists are made again (a small change by
        // isSmallChange()'s measure, so the rewrites that follow cost more than this walk).
        m_sliceWork += long(m_proxyToSource.size() + p->accepted.size());
        leaving.clear();
        for (size_t row = 0; row < m_proxyToSource.size(); ++row)
            if (!p->accepted[size_t(m_proxyToSource[row])])
                leaving.push_back(int(row));
        entering.clear();
        for (size_t s = 0; s < p->accepted.size(); ++s)
            if (p->accepted[s] && m_sourceToProxy[s] < 0)
                entering.push_back(int(s));
    }
    m_active = p->filter;
    removeProxyRows(std::move(leaving));
    insertSourceRows(std::move(entering));
    m_sliceWork += long(p->touched.size());
    settle(std::move(p->touched));
    emit filterApplied();
}

// The order and map laid out while placing replace the shown ones in one reset; rows whose verdict or
// sort key changed meanwhile (and rows added meanwhile) follow as ordinary changes.
void LockFilterProxy::applyAsReset()
{
    const std::unique_ptr<Pass> p = std::move(m_pass);
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
    m_sliceWork += long(unsure.size());
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
    if (m_pass) {
        // Locks come and go all the time: the verdicts so far are kept (renumbered), only a sort
        // under way starts again, over the rows as numbered now.
        Pass& p = *m_pass;
        p.accepted.erase(p.accepted.begin() + first, p.accepted.begin() + last + 1);
        if (p.cursor > first)
            p.cursor = qMax(first, p.cursor - count);
        if (p.stage != Pass::Stage::Judging)
            beginWeighing();
    }
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
        if (first < int(m_pass->accepted.size())) {
            startPass(false); // its rows are numbered as they were
        } else {
            // Appended rows: judging reaches them in turn; once sorting, they are judged now and
            // placed when the pass ends (by the placement when it has not begun, after the swap
            // when it has).
            Pass& p = *m_pass;
            p.accepted.resize(size_t(m_model->rowCount()), 0);
            if (p.stage != Pass::Stage::Judging)
                for (int s = first; s <= last; ++s) {
                    p.accepted[size_t(s)] = accepts(p.filter, s, now) ? 1 : 0;
                    if (p.stage == Pass::Stage::Placing && p.accepted[size_t(s)])
                        p.touched.push_back(s);
                }
        }
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
        // The pass's verdicts follow the change; a row whose key moved before placing is placed again,
        // one that changed while weighing (its verdict) or placing is settled once the result is shown.
        Pass& p = *m_pass;
        const qint64 now = monotonicMs();
        const bool keyMayMove = m_sortColumn >= 0 && m_sortColumn != LockTableModel::ResourceColumn;
        const bool judging = p.stage == Pass::Stage::Judging;
        const int judged = judging ? qMin(bottomRight.row(), p.cursor - 1) : bottomRight.row();
        for (int s = topLeft.row(); s <= judged; ++s) {
            const char verdict = accepts(p.filter, s, now) ? 1 : 0;
            const bool flipped = verdict != p.accepted[size_t(s)];
            p.accepted[size_t(s)] = verdict;
            if ((flipped && p.stage == Pass::Stage::Weighing) ||
                (p.stage == Pass::Stage::Placing && (flipped || keyMayMove)))
                p.touched.push_back(s);
            if (keyMayMove && (p.stage == Pass::Stage::Weighing || p.stage == Pass::Stage::Sorting))
                p.misplaced.push_back(s);
        }
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
