// SPDX-License-Identifier: Apache-2.0
#include "insights/familypictures.h"

#include "insights/familyfigures.h"
#include "insights/familysamples.h"

#include <algorithm>
#include <numeric>

namespace lockscope {

namespace {

// The smallest of 1, 2 and 5 times a power of ten that is at least `ms`.
qint64 roundStep(qint64 ms)
{
    for (qint64 decade = 1;; decade *= 10)
        for (const qint64 m : {1, 2, 5})
            if (m * decade >= ms)
                return m * decade;
}

// A bin of wall-clock time that a reader counts in: the smallest of these at least `ms`.
qint64 clockStep(qint64 ms)
{
    static constexpr qint64 second = 1000, minute = 60 * second, hour = 60 * minute;
    static constexpr std::array<qint64, 22> steps{
        100,         200,      500,        second,     2 * second,  5 * second,   10 * second, 15 * second,
        30 * second, minute,   2 * minute, 5 * minute, 10 * minute, 15 * minute,  30 * minute, hour,
        2 * hour,    3 * hour, 6 * hour,   12 * hour,  24 * hour,   7 * 24 * hour};
    const auto it = std::lower_bound(steps.cbegin(), steps.cend(), ms);
    return it == steps.cend() ? steps.back() * ((ms + steps.back() - 1) / steps.back()) : *it;
}

void countInto(std::vector<qint64>& bins, const std::vector<qint32>& tenths, qint64 baseMs,
               const ActivityTimeline& t)
{
    for (const qint32 at : tenths) {
        const qint64 bin = (baseMs + qint64(at) * 100 - t.fromMs) / t.binMs;
        if (bin >= 0 && bin < qint64(bins.size()))
            ++bins[size_t(bin)];
    }
}

} // namespace

DurationHistogram DurationHistogram::of(const std::vector<qint32>& sorted, qint64 upToMs, int bins)
{
    DurationHistogram h;
    bins = qMax(1, bins);
    h.binMs = roundStep(qMax<qint64>(1, (qMax<qint64>(upToMs, 1) + bins - 1) / bins));
    const qint64 used = qMin<qint64>(bins, (qMax<qint64>(upToMs, 1) + h.binMs - 1) / h.binMs);
    h.counts.assign(size_t(qMax<qint64>(used, 1)), 0);
    const qint64 end = qint64(h.counts.size()) * h.binMs;
    for (const qint32 ms : sorted) {
        if (ms >= end)
            ++h.beyond;
        else
            ++h.counts[size_t(ms / h.binMs)];
    }
    return h;
}

qint64 DurationHistogram::total() const
{
    return std::accumulate(counts.cbegin(), counts.cend(), beyond);
}

FamilyPictures FamilyPictures::of(const FamilySamples& samples, const FamilyFigures& figures, qint64 baseMs,
                                  qint64 fromMs, qint64 toMs)
{
    FamilyPictures p;
    // Far enough to show the lease and what ran past it, or the slowest percent where no lease is known.
    const qint64 holdReach = qMax(figures.leaseMs > 0 ? figures.leaseMs + figures.leaseMs / 4 : 0,
                                  figures.holdMs.p99 + figures.holdMs.p99 / 10);
    p.holds = DurationHistogram::of(samples.holdMs, holdReach);
    p.handoverGaps = DurationHistogram::of(samples.handoverGapMs,
                                           figures.handoverGapMs.p99 + figures.handoverGapMs.p99 / 10);
    ActivityTimeline& t = p.activity;
    t.binMs = clockStep(qMax<qint64>(1, toMs - fromMs) / timelineBins + 1);
    t.fromMs = fromMs - fromMs % t.binMs;
    const size_t bins = size_t(qMax<qint64>(1, (toMs - t.fromMs) / t.binMs + 1));
    t.acquired.assign(bins, 0);
    countInto(t.acquired, samples.acquiredAt, baseMs, t);
    for (size_t end = 0; end < t.ended.size(); ++end) {
        t.ended[end].assign(bins, 0);
        countInto(t.ended[end], samples.endedAt[end], baseMs, t);
    }
    return p;
}

} // namespace lockscope
