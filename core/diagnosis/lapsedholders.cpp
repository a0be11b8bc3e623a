// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/lapsedholders.h"

namespace lockscope {

void LapsedHolders::note(const RecordEvent& told)
{
    if (m_told.size() >= maxTokens && !m_told.contains(told.token))
        m_told.clear();
    // A Redlock's masters each tell it; one that saw the connection open outweighs one that had it
    // closed (the holder may have reconnected to that master only).
    const auto it = m_told.constFind(told.token);
    if (it != m_told.cend() && it->kind == RecordEvent::Kind::TracedAlive &&
        told.kind != RecordEvent::Kind::TracedAlive && qAbs(it->timeMs - told.timeMs) <= withinMs)
        return;
    m_told.insert(told.token, told);
}

const RecordEvent* LapsedHolders::about(const QByteArray& token, qint64 atMs) const
{
    const auto it = m_told.constFind(token);
    return it != m_told.cend() && qAbs(it->timeMs - atMs) <= withinMs ? &*it : nullptr;
}

} // namespace lockscope
