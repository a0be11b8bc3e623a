// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include <array>
#include <vector>

namespace lockscope {

// What a family's tenures showed, gathered as a pass over the recording meets them
// (LockStatsBuilder); FamilyFigures are drawn from it at the end. Durations in ms.
struct FamilySamples
{
    QByteArray family;
    qint64 resources = 0;              // distinct resources of the family
    qint64 acquisitions = 0;           // tenures seen being taken
    qint64 open = 0;                   // still held when the recording ends
    std::vector<qint32> holdMs;        // released tenures seen from their start: how long they were held
    std::vector<qint32> leaseMs;       // the TTL each acquisition was taken with, as first read
    std::vector<qint32> handoverGapMs; // from a release or expiry to the next holder
    std::vector<qint32> renewalGapMs;  // between two renewals (or the acquisition and the first)
    qint64 lateRenewals = 0;           // renewals that came with less than a fifth of the lease left
    std::array<qint64, 6> endings{};   // ended tenures by Episode::End (Open unused)
    // Contention, where it was observed: the most clients seen waiting (-1: never read), the longest
    // a lock stayed free while some waited (-1: never), and the attempts the tracer saw turned away
    // on each master (empty: no trace of the family).
    qint64 peakWaiters = -1;
    qint64 longestFreeWhileWaitingMs = -1;
    std::vector<qint64> refusedOnMaster;
    // Only for pictures (LockStatsBuilder::Detail::Pictures): when each acquisition and each ending
    // (by Episode::End) happened, in tenths of a second after the pass's first event.
    std::vector<qint32> acquiredAt;
    std::array<std::vector<qint32>, 6> endedAt;
};

} // namespace lockscope
