// SPDX-License-Identifier: Apache-2.0
#include "monitor/lockcountforecast.h"

#include <algorithm>

namespace lockscope {

void LockCountForecast::setProgress(int master, qint64 scanned, qint64 total)
{
    if (total > 0)
        m_progress.insert(master, {scanned, total});
}

qint64 LockCountForecast::expected(qint64 known) const
{
    double missed = 1.0; // the chance that no scan has met a given lock yet
    qint64 keys = 0;
    for (const Progress& p : m_progress) {
        missed *= 1.0 - std::clamp(double(p.scanned) / double(p.total), 0.0, 1.0);
        keys += p.total;
    }
    const double met = 1.0 - missed;
    if (met < leastShare || known <= 0)
        return 0;
    return std::min(qint64(double(known) / met), std::max(keys, known));
}

} // namespace lockscope
