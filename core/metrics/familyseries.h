// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include <array>

namespace lockscope {

// One family of locks (ResourceFamily) as `lockctl serve` exports it (issue #44): its hold times as
// a Prometheus histogram, how its tenures ended, and its lease headroom.
struct FamilySeries
{
    // Upper bounds of the hold-time buckets, in seconds (+Inf after them): from a few ms to a
    // quarter of an hour, so that short holds on 1 s leases and long jobs both resolve.
    static constexpr std::array<double, 15> bucketBounds{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                         2.5,   5,    10,    30,   60,  300,  900};
    enum Ending
    {
        Released,
        Expired,
        ForceReleased,
        Replaced, // another token took the key without a release or expiry seen in between
        EndingCount
    };

    QByteArray family; // "other" for the families beyond the series limit
    std::array<quint64, bucketBounds.size() + 1> buckets{}; // per bucket (not cumulative); last: +Inf
    double holdSecondsSum = 0;
    quint64 holds = 0;
    std::array<quint64, EndingCount> endings{};
    // p99 of the latest holds / median of the latest leases; -1 with too few holds to say.
    double headroom = -1;

    static const char* endingLabel(Ending how);
};

} // namespace lockscope
