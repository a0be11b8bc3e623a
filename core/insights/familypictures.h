// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <array>
#include <vector>

namespace lockscope {

struct FamilyFigures;
struct FamilySamples;

// Durations counted in bins of equal width, from 0: bin i holds [i * binMs, (i + 1) * binMs).
// `beyond` counts what lies past the last bin, so that one outlier does not squash the rest.
struct DurationHistogram
{
    qint64 binMs = 1;
    std::vector<qint64> counts;
    qint64 beyond = 0;

    // `sorted` in about `bins` bins of a width that reads well on an axis (1, 2 or 5 times a power
    // of ten ms) reaching at least `upToMs`.
    static DurationHistogram of(const std::vector<qint32>& sorted, qint64 upToMs, int bins = 40);
    qint64 total() const;
};

// Counts per bin of wall-clock time: bin i starts at fromMs + i * binMs.
struct ActivityTimeline
{
    qint64 fromMs = 0;
    qint64 binMs = 1000;
    std::vector<qint64> acquired;
    // Tenures that ended in each bin, by Episode::End (Open unused).
    std::array<std::vector<qint64>, 6> ended;
};

// What the window's Insights draws for one family (issue #44): its hold times against its lease,
// its acquisitions and endings over time, its handover gaps. Made from the samples the figures
// came from, so the pictures and the table cannot disagree.
struct FamilyPictures
{
    static constexpr int timelineBins = 60;

    DurationHistogram holds;
    DurationHistogram handoverGaps;
    ActivityTimeline activity;

    // `samples` as FamilyFigures::of left them (sorted), their times in tenths of a second after
    // `baseMs`; the timeline spans [fromMs, toMs].
    static FamilyPictures of(const FamilySamples& samples, const FamilyFigures& figures, qint64 baseMs,
                             qint64 fromMs, qint64 toMs);
};

} // namespace lockscope
