// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "insights/familysamples.h"
#include "insights/spread.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

#include <memory>

namespace lockscope {

struct FamilyPictures;

// How one family of locks behaves (issue #44): hold times against leases, how tenures end,
// handovers and renewals. Durations in ms; -1 where nothing was observed.
struct FamilyFigures
{
    // Past this, a pause or one slow call expires the lock under its holder: p99 hold / lease.
    static constexpr double lowHeadroomAbove = 0.8;
    // Past this share of ended tenures expiring, holders crash or overrun instead of releasing.
    static constexpr double highExpiryShareAbove = 0.05;
    // Fewer samples than this flag nothing: a percentile of three holds is only their largest.
    static constexpr qint64 minSamplesToFlag = 10;

    QByteArray family;
    qint64 resources = 0;
    qint64 acquisitions = 0;
    double acquisitionsPerMinute = 0;
    Spread holdMs;        // released tenures seen from their start
    qint64 leaseMs = -1;  // the median lease they were taken with
    double headroom = -1; // holdMs.p99 / leaseMs
    bool lowHeadroom = false;
    qint64 released = 0;
    qint64 expired = 0;
    qint64 forceReleased = 0;
    qint64 replaced = 0;
    qint64 lost = 0;
    qint64 open = 0;
    double expiredShare = -1; // expired / ended
    bool highExpiryShare = false;
    Spread handoverGapMs;
    Spread renewalGapMs;
    qint64 lateRenewals = 0;
    // Contention, -1 where not observed: waiters are read for layouts that record them (Redisson),
    // refused attempts only while the tracer ran. An attempt on a Redlock is turned away by each
    // master that holds another token: counted on the master that refused most, not once per master.
    qint64 peakWaiters = -1;
    qint64 longestFreeWhileWaitingMs = -1;
    qint64 refusedAttempts = -1;
    // What the window draws of it; only from a pass asked for pictures (LockStatsBuilder::Detail).
    std::shared_ptr<const FamilyPictures> pictures;

    qint64 ended() const { return released + expired + forceReleased + replaced + lost; }
    bool flagged() const { return lowHeadroom || highExpiryShare; }

    // The figures of `samples` over `spanMs` of recording (its samples are sorted on the way).
    static FamilyFigures of(FamilySamples& samples, qint64 spanMs);
    // Riskiest first: flagged ones, then by headroom, expiry share and activity.
    static void sortByRisk(QList<FamilyFigures>& families);
};

// As `lockctl stats --json` prints a family (and the window exports it).
QJsonObject familyFiguresJson(const FamilyFigures& f);

} // namespace lockscope
