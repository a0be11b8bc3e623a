// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/scannedtenure.h"

#include <bit>

namespace lockscope {

quint64 ScannedTenure::unexplainedDrops(quint64 dropped, qint64 atMs,
                                        const QList<RecordEvent>& masterEvents) const
{
    quint64 out = 0;
    for (int m = 0; m < 64 && dropped; ++m) {
        const quint64 bit = quint64(1) << m;
        if (!(dropped & bit))
            continue;
        dropped &= ~bit;
        bool explained = false;
        const qint64 since = joinedAt(m, quorumAtMs - 1000);
        for (const RecordEvent& me : masterEvents)
            explained |= me.master == m && me.timeMs >= since && me.timeMs <= atMs;
        if (!explained)
            out |= bit;
    }
    return out;
}

void ScannedTenure::noteEarly(quint64 unexplained, qint64 atMs)
{
    if (!unexplained || earlyMaster >= 0 || !expiredEarly(atMs))
        return;
    earlyMaster = std::countr_zero(unexplained);
    earlyAtMs = atMs;
}

} // namespace lockscope
