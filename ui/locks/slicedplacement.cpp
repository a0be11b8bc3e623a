// SPDX-License-Identifier: Apache-2.0
#include "locks/slicedplacement.h"

#include <algorithm>
#include <bit>

namespace lockscope {

void SlicedPlacement::start(std::vector<int> sorted, const std::vector<int>& misplaced, size_t sourceRows)
{
    m_sorted = std::move(sorted);
    m_placed.assign(sourceRows, 0);
    for (int s : misplaced)
        m_placed[size_t(s)] = 2;
    m_anyMisplaced = !misplaced.empty();
    m_order.clear();
    m_order.reserve(m_sorted.size());
    m_late.clear();
    m_merged.clear();
    m_sourceToProxy.clear();
    m_sourceToProxy.reserve(sourceRows);
    m_at = 0;
    m_from = 0;
    m_phase = Phase::Keeping;
}

bool SlicedPlacement::step(const std::vector<char>& accepted, const Less& less, long budget)
{
    while (budget > 0 && m_phase != Phase::Done) {
        switch (m_phase) {
        case Phase::Keeping:
            if (keep(accepted, less, budget)) {
                m_sorted = {};
                m_at = 0;
                m_phase = Phase::Collecting;
            }
            break;
        case Phase::Collecting:
            if (collect(accepted, budget)) {
                m_at = 0;
                m_lateSort.start(std::move(m_late), 0);
                m_late.clear();
                m_phase = Phase::SortingLate;
            }
            break;
        case Phase::SortingLate: {
            // Mostly none or a few: those appended or changed while the main sort ran.
            const long used = std::min(budget, 512L);
            budget -= used;
            if (m_lateSort.step(less, used)) {
                m_late = m_lateSort.take();
                m_merged.reserve(m_late.empty() ? 0 : m_order.size() + m_late.size());
                m_phase = m_late.empty() ? Phase::Clearing : Phase::Merging;
            }
            break;
        }
        case Phase::Merging:
            if (merge(less, budget)) {
                m_order = std::move(m_merged);
                m_merged = {};
                m_phase = Phase::Clearing;
            }
            break;
        case Phase::Clearing:
        case Phase::Mapping:
            if (map(budget)) {
                m_placed = {};
                m_phase = Phase::Done;
            }
            break;
        case Phase::Done:
            break;
        }
    }
    return m_phase == Phase::Done;
}

bool SlicedPlacement::keep(const std::vector<char>& accepted, const Less& less, long& budget)
{
    for (; m_at < m_sorted.size() && budget > 0; ++m_at, --budget) {
        const int s = m_sorted[m_at];
        if (!accepted[size_t(s)] || m_placed[size_t(s)] != 0)
            continue;
        // A key that changed mid-sort may have left its neighbours out of order: whatever is not
        // in order behind the last row kept is placed again too.
        if (m_anyMisplaced && !m_order.empty() && less(s, m_order.back()))
            continue;
        m_order.push_back(s);
        m_placed[size_t(s)] = 1;
    }
    return m_at >= m_sorted.size();
}

bool SlicedPlacement::collect(const std::vector<char>& accepted, long& budget)
{
    for (; m_at < m_placed.size() && budget > 0; ++m_at, --budget)
        if (accepted[m_at] && m_placed[m_at] != 1)
            m_late.push_back(int(m_at));
    return m_at >= m_placed.size();
}

// Each late row goes in by binary search among the kept ones; the runs between are copied.
bool SlicedPlacement::merge(const Less& less, long& budget)
{
    const long search = long(std::bit_width(m_order.size())) + 1;
    for (; m_at < m_late.size() && budget > 0; ++m_at) {
        const int s = m_late[m_at];
        const auto from = m_order.begin() + long(m_from);
        const auto at = std::upper_bound(from, m_order.end(), s, less);
        budget -= search;
        // A long run is copied a budget at a time (its row's place is looked up again next time).
        if (const long room = std::max(budget, 1L); at - from > room) {
            m_merged.insert(m_merged.end(), from, from + room);
            m_from += size_t(room);
            budget = 0;
            return false;
        }
        m_merged.insert(m_merged.end(), from, at);
        m_merged.push_back(s);
        budget -= long(at - from) + 1;
        m_from = size_t(at - m_order.begin());
    }
    if (m_at < m_late.size())
        return false;
    m_merged.insert(m_merged.end(), m_order.begin() + long(m_from), m_order.end());
    return true;
}

bool SlicedPlacement::map(long& budget)
{
    if (m_phase == Phase::Clearing) {
        const size_t n = m_placed.size();
        const size_t end = std::min(n, m_sourceToProxy.size() + size_t(budget));
        budget -= long(end - m_sourceToProxy.size());
        m_sourceToProxy.resize(end, -1);
        if (end < n)
            return false;
        m_at = 0;
        m_phase = Phase::Mapping;
    }
    for (; m_at < m_order.size() && budget > 0; ++m_at, --budget)
        m_sourceToProxy[size_t(m_order[m_at])] = int(m_at);
    return m_at >= m_order.size();
}

std::vector<int> SlicedPlacement::takeOrder()
{
    return std::move(m_order);
}

std::vector<int> SlicedPlacement::takePlacedBySearch()
{
    return std::move(m_late);
}

std::vector<int> SlicedPlacement::takeSourceToProxy()
{
    return std::move(m_sourceToProxy);
}

} // namespace lockscope
