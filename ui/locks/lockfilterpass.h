// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locks/lockfilter.h"
#include "locks/slicedplacement.h"
#include "locks/slicedsort.h"

#include <QElapsedTimer>

#include <functional>
#include <vector>

namespace lockscope {

// A filter change LockFilterProxy works out while the view keeps showing the previous result: each
// row's verdict, then what the change drops and adds, and then, unless the proxy applies so small
// a change row by row, the order of the rows it lets in, and that order and its map laid out for
// the swap. It goes a slice at a time. Rows are the source model's; the proxy keeps the verdicts
// current as rows come, go and change, and reads the state below to apply the result.
class LockFilterPass
{
public:
    enum class Stage
    {
        Judging,
        Weighing, // what the change drops and adds, and the rows to sort
        Sorting,
        Placing,
    };
    // One slice on the GUI thread: when it began, the most rows (or comparisons) each stage may go
    // through in it (the limit tests set; 0: time alone), and how many it went through.
    struct Slice
    {
        QElapsedTimer clock;
        long limit = 0;
        long work = 0;
    };
    // A source row's verdict under a filter at a time on the monotonic clock.
    using Judge = std::function<bool(const LockFilter& filter, int sourceRow, qint64 nowMs)>;
    // A change applied row by row: the shown rows it drops (proxy rows) and the source rows it
    // lets in.
    struct Change
    {
        std::vector<int> leaving;
        std::vector<int> entering;
    };

    // `oneGo`: a small model's change, with no time limit, done before the setter returns.
    LockFilterPass(const LockFilter& wanted, int sourceRows, bool oneGo);

    LockFilter filter;
    bool inOneGo = false;
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

    // Judges the rows, then weighs the change against the shown rows (`shownRowsVersion`: their
    // version now); true when weighed, false when the slice was used up first.
    bool judgeAndWeigh(Slice& slice, int sourceRows, const Judge& judge,
                       const std::vector<int>& proxyToSource, const std::vector<int>& sourceToProxy,
                       quint64 shownRowsVersion);
    // A change too large to apply row by row: sorts the rows it keeps and lets in, then lays out
    // the order and its map; sortAndPlace() is true when laid out.
    void beginSorting();
    bool sortAndPlace(Slice& slice, const SlicedSort::Less& less);
    // A change small enough to apply row by row, as weighed, or walked again when the shown rows
    // changed since.
    Change takeChange(Slice& slice, const std::vector<int>& proxyToSource,
                      const std::vector<int>& sourceToProxy, quint64 shownRowsVersion);

    // The verdicts follow the source model. Its rows first..last went (`shownRowsVersion`: the
    // shown rows' version after that).
    void rowsRemoved(int first, int last, quint64 shownRowsVersion);
    // Rows first..last were added after every row the pass has a verdict for (`sourceRows` now).
    void rowsAppended(int first, int last, int sourceRows, qint64 nowMs, const Judge& judge);
    // Rows first..last changed; `keyMayMove`: the sort is by a column whose value may change.
    void rowsChanged(int first, int last, bool keyMayMove, qint64 nowMs, const Judge& judge);

private:
    bool judgeSlice(Slice& slice, int sourceRows, const Judge& judge);
    void beginWeighing(quint64 shownRowsVersion);
    bool weighSlice(Slice& slice, const std::vector<int>& proxyToSource,
                    const std::vector<int>& sourceToProxy);
    bool sortSlice(Slice& slice, const SlicedSort::Less& less);
    void beginPlacing();
    bool placeSlice(Slice& slice, const SlicedPlacement::Less& less);
    bool sliceUsedUp(const Slice& slice, long budget) const;
    // Runs `step` rowsPerLook rows at a time until `done`, or until the slice (its time, or the
    // row limit tests set) is used up; true when done.
    bool stepWithinSlice(Slice& slice, const std::function<bool()>& done,
                         const std::function<void(long)>& step);
};

} // namespace lockscope
