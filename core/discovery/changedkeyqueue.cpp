#include "discovery/changedkeyqueue.h"

namespace lockscope {

void ChangedKeyQueue::push(const QByteArray& key)
{
    const qsizetype before = m_waiting.size();
    m_waiting.insert(key); // one lookup: a flood asks this 200k times a second
    if (m_waiting.size() != before)
        m_keys.push_back(key);
}

QByteArrayList ChangedKeyQueue::take(qsizetype max)
{
    const qsizetype n = qMin(max, size());
    QByteArrayList out;
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        m_waiting.remove(m_keys.front());
        out << std::move(m_keys.front());
        m_keys.pop_front();
    }
    if (isEmpty()) {
        // The set gives its memory back too: after a burst of a million changed keys, a hash sized
        // for it would otherwise stay.
        m_waiting = {};
        m_keys = {};
    }
    return out;
}

} // namespace lockscope
