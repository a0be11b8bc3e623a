// SPDX-License-Identifier: Apache-2.0
#include "discovery/changedkeyqueue.h"

namespace lockscope {

ChangedKeyQueue::ChangedKeyQueue(ScanKeyTable& table) : m_table(table)
{
    m_table.setRenumbered([this](const ScanKeyTable::Renumbering& moved) { renumber(moved); });
}

ChangedKeyQueue::~ChangedKeyQueue()
{
    m_table.setRenumbered({});
}

void ChangedKeyQueue::push(ScanKeyTable::Stored entry)
{
    if (entry.mark.waiting)
        return;
    entry.mark.waiting = true;
    m_entries.push_back(entry.index);
}

QByteArrayList ChangedKeyQueue::take(qsizetype max)
{
    const qsizetype n = qMin(max, size());
    QByteArrayList out;
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const quint32 index = m_entries.front();
        m_table.markAt(index).waiting = false;
        out << m_table.keyAt(index);
        m_entries.pop_front();
    }
    if (isEmpty()) // after a burst of a million changed keys, its blocks and their map would otherwise stay
        std::deque<quint32>().swap(m_entries);
    return out;
}

void ChangedKeyQueue::renumber(const ScanKeyTable::Renumbering& moved)
{
    // A sweep keeps every waiting entry and tells where each went, so none of these is gone.
    for (quint32& index : m_entries) {
        index = moved[index];
        Q_ASSERT(index != ScanKeyTable::gone);
    }
}

} // namespace lockscope
