// SPDX-License-Identifier: Apache-2.0
#include "monitor/viewchange.h"

namespace lockscope {

namespace {

bool anyExpiryMoved(const QList<MasterObservation>& before, const QList<MasterObservation>& now)
{
    if (before.constData() == now.constData())
        return false; // the same list (the common case): nothing to compare
    if (before.size() != now.size())
        return true;
    for (qsizetype i = 0; i < before.size(); ++i)
        if (ViewChange::expiryMoved(before.at(i).pttlMs(), before.at(i).readAtMs(), now.at(i).pttlMs(),
                                    now.at(i).readAtMs()))
            return true;
    return false;
}

} // namespace

bool ViewChange::expiryMoved(qint64 beforePttlMs, qint64 beforeReadAtMs, qint64 nowPttlMs, qint64 nowReadAtMs)
{
    if (beforePttlMs < 0 || nowPttlMs < 0)
        return beforePttlMs != nowPttlMs;
    const qint64 projected = beforePttlMs - (nowReadAtMs - beforeReadAtMs);
    return qAbs(nowPttlMs - projected) > 50;
}

bool ViewChange::significant(const LockView& a, const LockView& b, double driftFactor)
{
    if (a.status != b.status || a.token != b.token || a.holding != b.holding || a.owner != b.owner ||
        a.format != b.format || a.holders != b.holders || a.atRisk != b.atRisk ||
        a.observations != b.observations || anyExpiryMoved(a.observations, b.observations))
        return true;
    if ((a.validityMs < 0) != (b.validityMs < 0))
        return true;
    // A validity is the quorum's TTL less a drift allowance that is a share of that TTL, so it counts
    // down slower than the clock by that share: recomputed later, it is above the earlier one
    // counted down, by the drift factor times the time between. That is no news (at 100k locks it
    // made a second view of half of them in the first minute); 50 ms more is.
    const qint64 between = qMax<qint64>(0, b.computedAtMs - a.computedAtMs);
    const qint64 tolerance = 50 + qint64(double(between) * qMax(0.0, driftFactor));
    return a.validityMs >= 0 && qAbs(a.validityAt(b.computedAtMs) - b.validityMs) > tolerance;
}

} // namespace lockscope
