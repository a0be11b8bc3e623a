// SPDX-License-Identifier: Apache-2.0
#include "locks/slicedsort.h"

#include <algorithm>

namespace lockscope {

void SlicedSort::start(std::vector<int> rows, size_t sortedPrefix)
{
    m_a = std::move(rows);
    m_b.assign(m_a.size(), 0);
    m_bounds.clear();
    m_nextBounds.clear();
    if (sortedPrefix > 0)
        m_bounds.push_back(0);
    m_chunkAt = std::min(sortedPrefix, m_a.size());
    m_merging = false;
}

bool SlicedSort::isDone() const
{
    return m_merging && m_bounds.size() <= 2;
}

std::vector<int> SlicedSort::take()
{
    m_b.clear();
    return std::move(m_a);
}

// Sets up the merge of run m_run with the one after it (or the copy of a last run without partner).
void SlicedSort::beginPair()
{
    const size_t runs = m_bounds.size() - 1;
    m_i = m_out = m_bounds[m_run];
    m_mid = m_j = m_bounds[m_run + 1];
    m_hi = m_run + 2 <= runs ? m_bounds[m_run + 2] : m_mid;
}

bool SlicedSort::step(const Less& less, long budget)
{
    while (!m_merging) {
        if (m_chunkAt >= m_a.size()) {
            m_bounds.push_back(m_a.size());
            m_merging = true;
            m_run = 0;
            if (m_bounds.size() > 2)
                beginPair();
            break;
        }
        if (budget <= 0)
            return false;
        const size_t end = std::min(m_chunkAt + chunk, m_a.size());
        std::stable_sort(m_a.begin() + long(m_chunkAt), m_a.begin() + long(end), less);
        m_bounds.push_back(m_chunkAt);
        budget -= long(chunk * 5); // about n log n comparisons
        m_chunkAt = end;
    }
    while (m_bounds.size() > 2) {
        for (; m_i < m_mid && m_j < m_hi && budget > 0; --budget)
            m_b[m_out++] = less(m_a[m_j], m_a[m_i]) ? m_a[m_j++] : m_a[m_i++];
        if (m_i < m_mid && m_j < m_hi)
            return false; // out of budget in the middle of a merge
        // One side is used up: the rest of the other follows as it is.
        m_out = std::copy(m_a.begin() + long(m_i), m_a.begin() + long(m_mid), m_b.begin() + long(m_out)) -
                m_b.begin();
        std::copy(m_a.begin() + long(m_j), m_a.begin() + long(m_hi), m_b.begin() + long(m_out));
        m_nextBounds.push_back(m_bounds[m_run]);
        m_run += 2;
        if (m_run + 1 >= m_bounds.size()) {
            // A whole pass done: half as many runs, twice as long.
            m_nextBounds.push_back(m_a.size());
            m_bounds.swap(m_nextBounds);
            m_nextBounds.clear();
            m_a.swap(m_b);
            m_run = 0;
        }
        if (m_bounds.size() > 2)
            beginPair();
        if (budget <= 0)
            return isDone();
    }
    return true;
}

} // namespace lockscope
