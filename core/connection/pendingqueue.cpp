// SPDX-License-Identifier: Apache-2.0
#include "connection/pendingqueue.h"

#include <QtGlobal>

namespace lockscope {

void PendingQueue::compact()
{
    m_items.erase(m_items.begin(), m_items.begin() + std::ptrdiff_t(m_head));
    m_head = 0;
}

void PendingQueue::stampLast(size_t count, qint64 deadline)
{
    for (size_t i = m_items.size() - qMin(count, size()); i < m_items.size(); ++i)
        m_items[i].deadline = qMin(m_items[i].deadline, deadline);
}

std::vector<PendingRequest> PendingQueue::takeAll()
{
    std::vector<PendingRequest> out;
    if (m_head == 0) {
        out.swap(m_items);
    } else {
        out.reserve(size());
        for (size_t i = m_head; i < m_items.size(); ++i)
            out.push_back(std::move(m_items[i]));
        m_items.clear();
    }
    m_head = 0;
    return out;
}

} // namespace lockscope
