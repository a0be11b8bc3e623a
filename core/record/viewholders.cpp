// SPDX-License-Identifier: Apache-2.0
#include "record/viewholders.h"

namespace lockscope {

quint64 holdersMask(const LockView& view, const QByteArray& token, int* holding)
{
    quint64 mask = 0;
    *holding = 0;
    for (qsizetype i = 0; i < view.observations.size(); ++i) {
        const MasterObservation& o = view.observations.at(i);
        if (!o.present() || o.error().isError() || o.lock().token != token)
            continue;
        ++*holding;
        if (i < 64)
            mask |= quint64(1) << i;
    }
    return mask;
}

bool writtenOver(const LockView& view, const QByteArray& token, quint64 holders)
{
    if (holders == 0)
        return false;
    for (qsizetype i = 0; i < 64; ++i) {
        if (!(holders & (quint64(1) << i)))
            continue;
        if (i >= view.observations.size())
            return false;
        const MasterObservation& o = view.observations.at(i);
        if (!o.present() || o.error().isError() || o.lock().token == token)
            return false;
    }
    return true;
}

qint64 validityFloorMs(const LockView& view)
{
    if (view.validityMs <= 0 || view.holding < view.needed || view.holders.isEmpty())
        return -1;
    // The validity is the needed-th longest TTL less the drift allowance: counting every TTL from
    // its send instead moves that TTL, and so the validity, back by at most the longest read.
    qint64 longestRead = 0;
    for (int i : view.holders) {
        if (i < 0 || i >= view.observations.size())
            return -1;
        const MasterObservation& o = view.observations.at(i);
        if (!o.hasExpiry())
            continue;
        if (o.sentAtMs() <= 0)
            return -1;
        longestRead = qMax(longestRead, o.readAtMs() - o.sentAtMs());
    }
    return view.computedAtMs + view.validityMs - longestRead - 1;
}

} // namespace lockscope
