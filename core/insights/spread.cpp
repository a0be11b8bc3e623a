// SPDX-License-Identifier: Apache-2.0
#include "insights/spread.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lockscope {

Spread Spread::of(std::vector<qint32>& samples)
{
    Spread s;
    s.count = qint64(samples.size());
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.p50 = percentile(samples, 0.50);
    s.p95 = percentile(samples, 0.95);
    s.p99 = percentile(samples, 0.99);
    s.max = samples.back();
    return s;
}

qint64 Spread::percentile(const std::vector<qint32>& sorted, double share)
{
    if (sorted.empty())
        return -1;
    const double rank = std::ceil(share * double(sorted.size()));
    const size_t index = size_t(std::clamp(rank, 1.0, double(sorted.size()))) - 1;
    return sorted[index];
}

qint32 Spread::sample(qint64 ms)
{
    return qint32(std::clamp<qint64>(ms, 0, std::numeric_limits<qint32>::max()));
}

} // namespace lockscope
