// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/pendingrequest.h"

#include <vector>

namespace lockscope {

// First-in first-out list of a connection's pending requests: a vector with a moving head, so that a
// pipeline at its working size allocates nothing per command (std::deque allocates a block every few).
class PendingQueue
{
public:
    bool empty() const { return m_head == m_items.size(); }
    size_t size() const { return m_items.size() - m_head; }
    const PendingRequest& front() const { return m_items[m_head]; }
    void push(PendingRequest pending) { m_items.push_back(std::move(pending)); }
    // Gives the last `count` entries `deadline`, or keeps theirs when earlier.
    void stampLast(size_t count, qint64 deadline);
    // Inline: one call per reply on the pipeline's hot path.
    PendingRequest pop()
    {
        PendingRequest out = std::move(m_items[m_head]);
        ++m_head;
        if (m_head == m_items.size()) {
            // Drained: start over at the front and keep the capacity for the next batch.
            m_items.clear();
            m_head = 0;
        } else if (m_head >= 4096 && m_head * 2 >= m_items.size()) {
            compact();
        }
        return out;
    }
    // Moves everything out, leaving this empty: for failing all of it.
    std::vector<PendingRequest> takeAll();

private:
    // A pipeline that never drains: drop the consumed half now and then (amortised O(1)).
    void compact();

    std::vector<PendingRequest> m_items;
    size_t m_head = 0;
};

} // namespace lockscope
