// SPDX-License-Identifier: Apache-2.0
#include "discovery/readorder.h"

#include <algorithm>

namespace lockscope {

quint64 ReadOrder::issue()
{
    m_out.push_back(++m_last);
    return m_last;
}

void ReadOrder::delivered(quint64 read, const QByteArrayList& keys)
{
    const auto it = std::find(m_out.begin(), m_out.end(), read);
    if (it == m_out.end())
        return; // went out on a connection before the last reset
    m_out.erase(it);
    if (!m_out.empty() && m_out.front() < read) {
        // Overtook a read still out: that one's first round trip is older than these keys now.
        for (const QByteArray& key : keys) {
            quint64& latest = m_ahead[key];
            latest = std::max(latest, read);
        }
        m_latestAhead = std::max(m_latestAhead, read);
    }
    // Once every read sent before the latest overtaking one is in, nothing left can be older.
    if (!m_ahead.isEmpty() && (m_out.empty() || m_out.front() > m_latestAhead))
        m_ahead.clear();
}

void ReadOrder::reset()
{
    m_out.clear();
    m_ahead.clear();
    m_latestAhead = 0;
}

} // namespace lockscope
