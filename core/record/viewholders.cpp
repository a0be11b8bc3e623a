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

} // namespace lockscope
