#include "discovery/changedkeyqueue.h"

namespace lockscope {

void ChangedKeyQueue::push(ScanKeyTable::Stored entry)
{
    if (entry.mark.waiting)
        return;
    entry.mark.waiting = true;
    m_keys.push_back(entry.key);
}

QByteArrayList ChangedKeyQueue::take(qsizetype max)
{
    const qsizetype n = qMin(max, size());
    QByteArrayList out;
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        if (ScanKeyTable::Mark* mark = m_table.find(m_keys.front()))
            mark->waiting = false;
        out << std::move(m_keys.front());
        m_keys.pop_front();
    }
    if (isEmpty()) // after a burst of a million changed keys, its blocks and their map would otherwise stay
        std::deque<QByteArray>().swap(m_keys);
    return out;
}

} // namespace lockscope
