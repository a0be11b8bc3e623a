#include "monitor/lockcountforecast.h"

#include <algorithm>

namespace lockscope {

void LockCountForecast::setProgress(int master, qint64 scanned, qint64 total)
{
    if (total <= 0)
        return;
    m_fraction.insert(master, std::clamp(double(scanned) / double(total), 0.0, 1.0));
    m_total.insert(master, total);
}

qint64 LockCountForecast::expected(qint64 known) const
{
    double missed = 1.0; // the chance that no scan has met a given lock yet
    for (const double f : m_fraction)
        missed *= 1.0 - f;
    const double met = 1.0 - missed;
    if (met < leastShare || known <= 0)
        return 0;
    qint64 keys = 0;
    for (const qint64 total : m_total)
        keys += total;
    return std::min(qint64(double(known) / met), std::max(keys, known));
}

} // namespace lockscope
