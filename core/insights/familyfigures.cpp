// SPDX-License-Identifier: Apache-2.0
#include "insights/familyfigures.h"

#include "base/bytesdisplay.h"
#include "record/resourcehistory.h"

#include <algorithm>

namespace lockscope {

namespace {

qint64 ending(const FamilySamples& s, Episode::End end)
{
    return s.endings[size_t(end)];
}

// A figure that is -1 where nothing was observed: null then.
QJsonValue known(qint64 v)
{
    return v < 0 ? QJsonValue() : QJsonValue(v);
}

QJsonObject spreadJson(const Spread& s)
{
    return {{QStringLiteral("count"), s.count},
            {QStringLiteral("p50"), known(s.p50)},
            {QStringLiteral("p95"), known(s.p95)},
            {QStringLiteral("p99"), known(s.p99)},
            {QStringLiteral("max"), known(s.max)}};
}

QJsonValue ratio(double r)
{
    return r < 0 ? QJsonValue() : QJsonValue(r);
}

} // namespace

FamilyFigures FamilyFigures::of(FamilySamples& samples, qint64 spanMs)
{
    FamilyFigures f;
    f.family = samples.family;
    f.resources = samples.resources;
    f.acquisitions = samples.acquisitions;
    // A short recording is not a high rate: the rate is over at least a minute.
    f.acquisitionsPerMinute = double(samples.acquisitions) * 60000.0 / double(qMax<qint64>(spanMs, 60000));
    f.holdMs = Spread::of(samples.holdMs);
    std::sort(samples.leaseMs.begin(), samples.leaseMs.end());
    f.leaseMs = Spread::percentile(samples.leaseMs, 0.5);
    if (f.holdMs.count > 0 && f.leaseMs > 0) {
        f.headroom = double(f.holdMs.p99) / double(f.leaseMs);
        f.lowHeadroom = f.holdMs.count >= minSamplesToFlag && f.headroom > lowHeadroomAbove;
    }
    f.released = ending(samples, Episode::End::Released);
    f.expired = ending(samples, Episode::End::Expired);
    f.forceReleased = ending(samples, Episode::End::ForceReleased);
    f.replaced = ending(samples, Episode::End::Replaced);
    f.lost = ending(samples, Episode::End::Lost);
    f.open = samples.open;
    if (f.ended() > 0) {
        f.expiredShare = double(f.expired) / double(f.ended());
        f.highExpiryShare = f.ended() >= minSamplesToFlag && f.expiredShare > highExpiryShareAbove;
    }
    f.handoverGapMs = Spread::of(samples.handoverGapMs);
    f.renewalGapMs = Spread::of(samples.renewalGapMs);
    f.lateRenewals = samples.lateRenewals;
    f.peakWaiters = samples.peakWaiters;
    f.longestFreeWhileWaitingMs = samples.longestFreeWhileWaitingMs;
    if (!samples.refusedOnMaster.empty())
        f.refusedAttempts =
            *std::max_element(samples.refusedOnMaster.cbegin(), samples.refusedOnMaster.cend());
    return f;
}

void FamilyFigures::sortByRisk(QList<FamilyFigures>& families)
{
    std::stable_sort(families.begin(), families.end(), [](const FamilyFigures& a, const FamilyFigures& b) {
        if (a.flagged() != b.flagged())
            return a.flagged();
        if (a.headroom != b.headroom)
            return a.headroom > b.headroom;
        if (a.expiredShare != b.expiredShare)
            return a.expiredShare > b.expiredShare;
        if (a.acquisitions != b.acquisitions)
            return a.acquisitions > b.acquisitions;
        return a.family < b.family;
    });
}

QJsonObject familyFiguresJson(const FamilyFigures& f)
{
    QJsonObject flags{{QStringLiteral("lowHeadroom"), f.lowHeadroom},
                      {QStringLiteral("highExpiryShare"), f.highExpiryShare}};
    QJsonObject endings{{QStringLiteral("released"), f.released},
                        {QStringLiteral("expired"), f.expired},
                        {QStringLiteral("forceReleased"), f.forceReleased},
                        {QStringLiteral("replaced"), f.replaced},
                        {QStringLiteral("lost"), f.lost},
                        {QStringLiteral("open"), f.open}};
    QJsonObject contention{{QStringLiteral("peakWaiters"), known(f.peakWaiters)},
                           {QStringLiteral("longestFreeWhileWaitingMs"), known(f.longestFreeWhileWaitingMs)},
                           {QStringLiteral("refusedAttempts"), known(f.refusedAttempts)}};
    return {{QStringLiteral("family"), escapeBytes(f.family)},
            {QStringLiteral("resources"), f.resources},
            {QStringLiteral("acquisitions"), f.acquisitions},
            {QStringLiteral("acquisitionsPerMinute"), f.acquisitionsPerMinute},
            {QStringLiteral("holdMs"), spreadJson(f.holdMs)},
            {QStringLiteral("leaseMs"), known(f.leaseMs)},
            {QStringLiteral("headroom"), ratio(f.headroom)},
            {QStringLiteral("endings"), endings},
            {QStringLiteral("expiredShare"), ratio(f.expiredShare)},
            {QStringLiteral("handoverGapMs"), spreadJson(f.handoverGapMs)},
            {QStringLiteral("renewalGapMs"), spreadJson(f.renewalGapMs)},
            {QStringLiteral("lateRenewals"), f.lateRenewals},
            {QStringLiteral("contention"), contention},
            {QStringLiteral("flags"), flags}};
}

} // namespace lockscope
