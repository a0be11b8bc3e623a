// SPDX-License-Identifier: Apache-2.0
#include "discovery/patternechofilter.h"

namespace lockscope {

bool PatternEchoFilter::isNewEvent(const QByteArray& pattern, const QByteArray& channel,
                                   const QByteArray& payload)
{
    if (channel == m_channel && payload == m_payload && !m_patterns.contains(pattern)) {
        m_patterns << pattern;
        return false;
    }
    m_channel = channel;
    m_payload = payload;
    m_patterns = {pattern};
    return true;
}

} // namespace lockscope
