// SPDX-License-Identifier: Apache-2.0
#include "discovery/keyspaceeventthrottle.h"

#include "discovery/keyspaceeventkind.h"

#include <utility>

namespace lockscope {

bool KeyspaceEventThrottle::pass(const QByteArray& event, qint64 nowMs)
{
    if (isExpiryEvent(event) || isDeleteEvent(event))
        return true;
    if (m_windowStartMs < 0 || nowMs - m_windowStartMs >= windowMs) {
        m_windowStartMs = nowMs;
        m_passedInWindow = 0;
    }
    if (m_passedInWindow < perWindow) {
        ++m_passedInWindow;
        return true;
    }
    ++m_skipped;
    return false;
}

qint64 KeyspaceEventThrottle::takeSkipped()
{
    return std::exchange(m_skipped, 0);
}

} // namespace lockscope
