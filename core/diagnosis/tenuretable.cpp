// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/tenuretable.h"

#include <bit>

namespace lockscope {

void TenureTable::takeMasters(const RecordEvent& e, const QList<RecordEvent>& masterEvents)
{
    for (Entry& entry : m_entries) {
        ScannedTenure& other = entry.second;
        if (entry.first == e.token)
            continue;
        // Left unexplained a moment before, now this token's: replaced in place there, though the
        // record saw it leave first (the read of the master came between the two writes).
        if ((other.droppedUnexplained & e.holders) && e.timeMs - other.droppedAtMs <= retakeWindowMs &&
            other.quorumAtMs >= 0 && other.gaveUpAtMs < 0 && other.replacedAtMs < 0)
            other.replacedAtMs = e.timeMs;
        other.droppedUnexplained &= ~e.holders;
        const quint64 taken = other.holders & e.holders;
        if (!taken)
            continue;
        const quint64 unexplained = other.unexplainedDrops(taken, e.timeMs, masterEvents);
        other.holders &= ~taken;
        other.holding = std::popcount(other.holders);
        if (unexplained && other.quorumAtMs >= 0 && other.gaveUpAtMs < 0 && other.replacedAtMs < 0) {
            other.replacedAtMs = e.timeMs;
            other.noteEarly(unexplained, e.timeMs);
        }
    }
}

} // namespace lockscope
