// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <vector>

namespace lockscope {

// How a set of durations is spread: its count, median, 95th and 99th percentiles and largest, in
// ms. Percentiles by nearest rank (the smallest sample with at least that share at or below it),
// so each is a duration that was observed, never one between two.
struct Spread
{
    qint64 count = 0;
    qint64 p50 = -1; // -1 when there is no sample
    qint64 p95 = -1;
    qint64 p99 = -1;
    qint64 max = -1;

    // Sorts `samples` (they are taken apart for this).
    static Spread of(std::vector<qint32>& samples);
    // The nearest-rank percentile `share` (0..1] of sorted samples; -1 when there are none.
    static qint64 percentile(const std::vector<qint32>& sorted, double share);
    // A duration as a sample: negative ones are 0, those past 24 days the largest a sample holds.
    static qint32 sample(qint64 ms);
};

} // namespace lockscope
