// SPDX-License-Identifier: Apache-2.0
#include "locks/lockfilterpass.h"

#include "base/monotonicclock.h"

#include <algorithm>
#include <climits>

namespace lockscope {

namespace {

// A slice of filtering gives the event loop back after this long (a 60 Hz frame is 16 ms).
constexpr qint64 sliceNs = 6'000'000;
// Rows judged (comparisons made) between looks at the clock.
constexpr long rowsPerLook = 512;

} // namespace

LockFilterPass::LockFilterPass(const LockFilter& wanted, int sourceRows, bool oneGo)
    : filter(wanted), inOneGo(oneGo), accepted(size_t(sourceRows), 0)
{}

bool LockFilterPass::judgeAndWeigh(Slice& slice, int sourceRows, const Judge& judge,
                                   const std::vector<int>& proxyToSource,
                                   const std::vector<int>& sourceToProxy, quint64 shownRowsVersion)
{
    if (stage == Stage::Judging) {
        if (!judgeSlice(slice, sourceRows, judge))
            return false;
        beginWeighing(shownRowsVersion);
    }
    return weighSlice(slice, proxyToSource, sourceToProxy);
}

bool LockFilterPass::sortAndPlace(Slice& slice, const SlicedSort::Less& less)
{
    if (stage == Stage::Sorting) {
        if (!sortSlice(slice, less))
            return false;
        beginPlacing();
    }
    return placeSlice(slice, less);
}

LockFilterPass::Change LockFilterPass::takeChange(Slice& slice, const std::vector<int>& proxyToSource,
                                                  const std::vector<int>& sourceToProxy,
                                                  quint64 shownRowsVersion)
{
    Change change{std::move(leaving), std::vector<int>(toSort.begin() + long(shownToSort), toSort.end())};
    if (shownVersion != shownRowsVersion) {
        // The shown rows changed while being weighed: the lists are made again (a small change by
        // the proxy's measure, so the rewrites that follow cost more than this walk).
        slice.work += long(proxyToSource.size() + accepted.size());
        change.leaving.clear();
        for (size_t row = 0; row < proxyToSource.size(); ++row)
            if (!accepted[size_t(proxyToSource[row])])
                change.leaving.push_back(int(row));
        change.entering.clear();
        for (size_t s = 0; s < accepted.size(); ++s)
            if (accepted[s] && sourceToProxy[s] < 0)
                change.entering.push_back(int(s));
    }
    return change;
}

// Judges rows until all are or the slice is used up; true when all are.
bool LockFilterPass::judgeSlice(Slice& slice, int sourceRows, const Judge& judge)
{
    const qint64 now = monotonicMs();
    long budget = slice.limit > 0 ? slice.limit : LONG_MAX;
    const int n = sourceRows;
    while (cursor < n) {
        if (sliceUsedUp(slice, budget))
            return false;
        const int end = int(std::min<long>(long(n), long(cursor) + std::min(rowsPerLook, budget)));
        budget -= end - cursor;
        slice.work += end - cursor;
        for (; cursor < end; ++cursor)
            accepted[size_t(cursor)] = judge(filter, cursor, now) ? 1 : 0;
    }
    return true;
}

// Judging is done (or the rows were renumbered since): the shown rows are walked, then the source
// rows, a slice at a time.
void LockFilterPass::beginWeighing(quint64 shownRowsVersion)
{
    stage = Stage::Weighing;
    weighingSource = false;
    weighAt = 0;
    shownVersion = shownRowsVersion;
    leaving.clear();
    leavingRuns = 0;
    lastLeaving = -2;
    entering = 0;
    toSort.clear();
    shownToSort = 0;
    misplaced.clear();
    touched.clear();
}

// Counts the runs of shown rows the change drops and the rows it lets in, listing the rows to sort.
// Rows that stay keep their order among themselves: only the ones coming in are sorted, then merged
// with them. Shown rows may move between slices; a row listed twice or missed is put right when
// the sorted rows are placed (see SlicedPlacement).
bool LockFilterPass::weighSlice(Slice& slice, const std::vector<int>& proxyToSource,
                                const std::vector<int>& sourceToProxy)
{
    long budget = slice.limit > 0 ? slice.limit : LONG_MAX;
    for (;;) {
        if (sliceUsedUp(slice, budget))
            return false;
        const size_t step = size_t(std::min(budget, rowsPerLook));
        budget -= long(step);
        slice.work += long(step);
        if (!weighingSource) {
            const size_t end = std::min(proxyToSource.size(), weighAt + step);
            for (; weighAt < end; ++weighAt) {
                const int s = proxyToSource[weighAt];
                if (accepted[size_t(s)]) {
                    toSort.push_back(s);
                } else {
                    leaving.push_back(int(weighAt));
                    leavingRuns += int(weighAt) != lastLeaving + 1 ? 1 : 0;
                    lastLeaving = int(weighAt);
                }
            }
            if (weighAt >= proxyToSource.size()) {
                weighingSource = true;
                weighAt = 0;
                shownToSort = toSort.size();
            }
            continue;
        }
        const size_t end = std::min(accepted.size(), weighAt + step);
        for (; weighAt < end; ++weighAt)
            if (accepted[weighAt] && sourceToProxy[weighAt] < 0) {
                ++entering;
                toSort.push_back(int(weighAt));
            }
        if (weighAt >= accepted.size())
            return true;
    }
}

void LockFilterPass::beginSorting()
{
    sort.start(std::move(toSort), shownToSort);
    toSort = {};
    leaving = {};
    touched.clear(); // placing takes each row's verdict as it is by then
    stage = Stage::Sorting;
}

bool LockFilterPass::sortSlice(Slice& slice, const SlicedSort::Less& less)
{
    return stepWithinSlice(
        slice, [this] { return sort.isDone(); }, [&](long rows) { sort.step(less, rows); });
}

void LockFilterPass::beginPlacing()
{
    placement.start(sort.take(), misplaced, accepted.size());
    misplaced.clear();
    stage = Stage::Placing;
}

bool LockFilterPass::placeSlice(Slice& slice, const SlicedPlacement::Less& less)
{
    return stepWithinSlice(
        slice, [this] { return placement.isDone(); },
        [&](long rows) { placement.step(accepted, less, rows); });
}

bool LockFilterPass::sliceUsedUp(const Slice& slice, long budget) const
{
    return budget <= 0 || (!inOneGo && slice.clock.nsecsElapsed() > sliceNs);
}

bool LockFilterPass::stepWithinSlice(Slice& slice, const std::function<bool()>& done,
                                     const std::function<void(long)>& step)
{
    long budget = slice.limit > 0 ? slice.limit : LONG_MAX;
    while (!done()) {
        if (sliceUsedUp(slice, budget))
            return false;
        const long rows = std::min(budget, rowsPerLook);
        budget -= rows;
        slice.work += rows;
        step(rows);
    }
    return true;
}

void LockFilterPass::rowsRemoved(int first, int last, quint64 shownRowsVersion)
{
    // Locks come and go all the time: the verdicts so far are kept (renumbered), only a sort
    // under way starts again, over the rows as numbered now.
    const int count = last - first + 1;
    accepted.erase(accepted.begin() + first, accepted.begin() + last + 1);
    if (cursor > first)
        cursor = qMax(first, cursor - count);
    if (stage != Stage::Judging)
        beginWeighing(shownRowsVersion);
}

void LockFilterPass::rowsAppended(int first, int last, int sourceRows, qint64 nowMs, const Judge& judge)
{
    // Judging reaches them in turn; once sorting, they are judged now and placed when the pass ends
    // (by the placement when it has not begun, after the swap when it has).
    accepted.resize(size_t(sourceRows), 0);
    if (stage != Stage::Judging)
        for (int s = first; s <= last; ++s) {
            accepted[size_t(s)] = judge(filter, s, nowMs) ? 1 : 0;
            if (stage == Stage::Placing && accepted[size_t(s)])
                touched.push_back(s);
        }
}

void LockFilterPass::rowsChanged(int first, int last, bool keyMayMove, qint64 nowMs, const Judge& judge)
{
    // The verdicts follow the change; a row whose key moved before placing is placed again, one
    // that changed while weighing (its verdict) or placing is settled once the result is shown.
    const bool judging = stage == Stage::Judging;
    const int judged = judging ? qMin(last, cursor - 1) : last;
    for (int s = first; s <= judged; ++s) {
        const char verdict = judge(filter, s, nowMs) ? 1 : 0;
        const bool flipped = verdict != accepted[size_t(s)];
        accepted[size_t(s)] = verdict;
        if ((flipped && stage == Stage::Weighing) || (stage == Stage::Placing && (flipped || keyMayMove)))
            touched.push_back(s);
        if (keyMayMove && (stage == Stage::Weighing || stage == Stage::Sorting))
            misplaced.push_back(s);
    }
}

} // namespace lockscope
