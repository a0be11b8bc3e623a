// SPDX-License-Identifier: Apache-2.0
#include "metrics/familyactivity.h"

#include "insights/spread.h"
#include "record/resourcefamily.h"

#include <algorithm>

namespace lockscope {

namespace {

// The nearest-rank percentile of a ring's samples, as lockctl stats computes it.
qint64 percentile(std::vector<qint32> samples, double share)
{
    std::sort(samples.begin(), samples.end());
    return Spread::percentile(samples, share);
}

template <typename T> void push(std::vector<T>& ring, size_t& next, size_t capacity, T value)
{
    if (ring.size() < capacity)
        ring.push_back(value);
    else
        ring[next] = value;
    next = (next + 1) % capacity;
}

} // namespace

const char* FamilySeries::endingLabel(Ending how)
{
    switch (how) {
    case Released:
        return "released";
    case Expired:
        return "expired";
    case ForceReleased:
        return "force-released";
    case Replaced:
        return "replaced";
    case EndingCount:
        break;
    }
    return "";
}

int FamilyActivity::seriesOf(const QByteArray& resource)
{
    QByteArray family = ResourceFamily::of(resource);
    if (const auto it = m_index.constFind(family); it != m_index.cend())
        return *it;
    if (m_index.size() < maxFamilies) {
        m_families.push_back({});
        m_families.back().series.family = family;
        return m_index[std::move(family)] = int(m_families.size()) - 1;
    }
    if (m_other < 0) {
        // A family really named "other" (a lock called "other") is the one: two series with the
        // same labels would make Prometheus refuse the whole page.
        if (const auto named = m_index.constFind(otherFamily); named != m_index.cend())
            return m_other = *named;
        m_families.push_back({});
        m_families.back().series.family = otherFamily;
        m_other = int(m_families.size()) - 1;
    }
    return m_other;
}

void FamilyActivity::acquired(int series, qint64 leaseMs)
{
    if (leaseMs < 0 || series < 0 || size_t(series) >= m_families.size())
        return;
    Family& f = m_families[size_t(series)];
    push(f.recentLeaseMs, f.nextLease, recentLeases, Spread::sample(leaseMs));
}

void FamilyActivity::ended(int series, FamilySeries::Ending how, qint64 holdMs)
{
    if (series < 0 || size_t(series) >= m_families.size())
        return;
    Family& f = m_families[size_t(series)];
    ++f.series.endings[how];
    // Only a release says how long its holder needed the lock: an expiry says how long it was let.
    if (how != FamilySeries::Released || holdMs < 0)
        return;
    const double seconds = double(holdMs) / 1000;
    const auto bound =
        std::lower_bound(FamilySeries::bucketBounds.cbegin(), FamilySeries::bucketBounds.cend(), seconds);
    ++f.series.buckets[size_t(bound - FamilySeries::bucketBounds.cbegin())];
    f.series.holdSecondsSum += seconds;
    ++f.series.holds;
    push(f.recentHoldMs, f.nextHold, recentHolds, Spread::sample(holdMs));
}

double FamilyActivity::headroomOf(const Family& f)
{
    if (f.recentHoldMs.size() < size_t(minHoldsForHeadroom) || f.recentLeaseMs.empty())
        return -1;
    const qint64 lease = percentile(f.recentLeaseMs, 0.5);
    return lease > 0 ? double(percentile(f.recentHoldMs, 0.99)) / double(lease) : -1;
}

QList<FamilySeries> FamilyActivity::snapshot() const
{
    QList<FamilySeries> out;
    out.reserve(qsizetype(m_families.size()));
    for (const Family& f : m_families) {
        out << f.series;
        out.last().headroom = headroomOf(f);
    }
    return out;
}

} // namespace lockscope
