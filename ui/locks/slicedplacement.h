// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locks/slicedsort.h"

#include <functional>
#include <vector>

namespace lockscope {

// The last stretch of a filter change: from the rows as the sort left them to the order the view
// will show and the map back from source rows, a budget at a time. Each is a plain walk over the
// rows, but at a million rows the walks together take longer than the GUI thread may stay away
// from its event loop, so the swap that shows the result must find them done.
class SlicedPlacement
{
public:
    using Less = std::function<bool(int, int)>;

    // `sorted`: the rows in order as the sort left them; `misplaced`: rows whose sort key changed
    // while it sorted (they, and whatever they left out of order, are placed again by binary
    // search); `sourceRows`: how many rows the source has now.
    void start(std::vector<int> sorted, const std::vector<int>& misplaced, size_t sourceRows);
    // Works through about `budget` rows or comparisons, taking each row's verdict (`accepted`, one
    // per source row) as it is when the row's turn comes; true once done.
    bool step(const std::vector<char>& accepted, const Less& less, long budget);
    bool isDone() const { return m_phase == Phase::Done; }
    // Once done: the accepted rows in order, and for each source row its place in it (-1: none).
    std::vector<int> takeOrder();
    std::vector<int> takeSourceToProxy();
    // The rows placed by binary search: when sort keys changed while placing, their places are
    // as unsure as those of the changed rows.
    std::vector<int> takePlacedBySearch();

private:
    enum class Phase
    {
        Keeping,     // the sorted rows still accepted and in order
        Collecting,  // accepted rows not kept
        SortingLate, // those in order
        Merging,     // merged into the kept ones
        Clearing,    // the map, every row out
        Mapping,     // the map, every row in order in
        Done,
    };
    bool keep(const std::vector<char>& accepted, const Less& less, long& budget);
    bool collect(const std::vector<char>& accepted, long& budget);
    bool merge(const Less& less, long& budget);
    bool map(long& budget);

    Phase m_phase = Phase::Done;
    std::vector<int> m_sorted;
    std::vector<char> m_placed; // per source row: 0 not yet, 1 kept, 2 to be placed again
    bool m_anyMisplaced = false;
    std::vector<int> m_order;
    std::vector<int> m_late;
    SlicedSort m_lateSort;
    std::vector<int> m_merged;
    std::vector<int> m_sourceToProxy;
    size_t m_at = 0;   // the next row of the phase's walk
    size_t m_from = 0; // merging: the first kept row not yet copied
};

} // namespace lockscope
