#include "discovery/changedkeyqueue.h"

namespace lockscope {

void ChangedKeyQueue::push(const QByteArray& key)
{
    if (m_waiting.contains(key))
        return;
    m_waiting.insert(key);
    m_keys << key;
}

QByteArrayList ChangedKeyQueue::take(qsizetype max)
{
    const qsizetype n = qMin(max, size());
    QByteArrayList out = m_keys.mid(m_head, n);
    for (const QByteArray& key : std::as_const(out))
        m_waiting.remove(key);
    m_head += n;
    if (isEmpty()) {
        // Both give their memory back: after a burst of a million changed keys, a list and a hash
        // sized for it would otherwise stay.
        m_keys = {};
        m_head = 0;
        m_waiting = {};
    } else if (m_head >= 4096 && m_head * 2 >= m_keys.size()) {
        m_keys.remove(0, m_head);
        m_head = 0;
    }
    return out;
}

} // namespace lockscope
