// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <vector>

namespace lockscope {

// A stable merge sort of row numbers that can stop after a given number of comparisons and go on
// later: sorting a million locks by name takes far longer than a GUI thread may stay away from its
// event loop, so the proxy does it a slice at a time. Rows already in order at the front (the ones
// a filter change keeps) are taken as one run and only merged with the rest, never sorted again.
class SlicedSort
{
public:
    using Less = std::function<bool(int, int)>;

    // `rows`: the first `sortedPrefix` of them already in order.
    void start(std::vector<int> rows, size_t sortedPrefix);
    // Works for about `budget` comparisons; true once the rows are in order.
    bool step(const Less& less, long budget);
    bool isDone() const;
    std::vector<int> take();

private:
    void beginPair();

    static constexpr size_t chunk = 32; // sorted in one go before the merging starts
    std::vector<int> m_a;
    std::vector<int> m_b;
    std::vector<size_t> m_bounds; // starts of the runs in m_a, then m_a.size()
    std::vector<size_t> m_nextBounds;
    bool m_merging = false;
    size_t m_chunkAt = 0; // next chunk to sort
    size_t m_run = 0;     // left run of the pair being merged
    size_t m_i = 0, m_j = 0, m_out = 0, m_mid = 0, m_hi = 0;
};

} // namespace lockscope
