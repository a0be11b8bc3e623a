#include "quorumcalculator.h"

#include <QHash>

#include <algorithm>

namespace lockscope {

namespace {

qint64 remainingPttl(const KeyObservation& o, qint64 nowMs)
{
    return qMax<qint64>(0, o.pttlMs - (nowMs - o.readAtMs));
}

} // namespace

LockView QuorumCalculator::compute(const QByteArray& resource, const QList<MasterObservation>& observations,
                                   const RedlockSettings& drift, qint64 nowMs)
{
    LockView view;
    view.resource = resource;
    view.observations = observations;
    view.total = int(observations.size());
    view.needed = view.total / 2 + 1;
    view.computedAtMs = nowMs;

    QHash<QByteArray, int> counts;
    int unreachable = 0;
    for (const MasterObservation& m : observations) {
        if (m.key.error.isError())
            ++unreachable;
        else if (m.key.present && !m.lock.auxiliary)
            ++counts[m.lock.token];
    }

    // The majority token; ties go to the token whose holders expire last, then to the smaller token,
    // so the same inputs always give the same answer.
    auto longestPttl = [&](const QByteArray& token) {
        qint64 best = -1;
        for (const MasterObservation& m : observations)
            if (!m.key.error.isError() && m.key.present && m.lock.token == token)
                best = qMax(best, m.key.hasExpiry() ? remainingPttl(m.key, nowMs)
                                                    : std::numeric_limits<qint64>::max());
        return best;
    };
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        const bool better = it.value() > view.holding ||
                            (it.value() == view.holding &&
                             (longestPttl(it.key()) > longestPttl(view.token) ||
                              (longestPttl(it.key()) == longestPttl(view.token) && it.key() < view.token)));
        if (view.holding == 0 || better) {
            view.token = it.key();
            view.holding = it.value();
        }
    }

    QList<qint64> remaining;
    bool anyWithoutExpiry = false;
    bool legacyExpired = false;
    qint64 legacyExpiresAt = -1;
    for (int i = 0; i < observations.size(); ++i) {
        const MasterObservation& m = observations.at(i);
        if (m.key.error.isError() || !m.key.present || m.lock.auxiliary || m.lock.token != view.token)
            continue;
        view.holders << i;
        if (view.format == LockFormat::Unknown || view.owner.isEmpty()) {
            view.format = m.lock.format;
            view.owner = m.lock.owner;
        }
        if (m.lock.format == LockFormat::LegacyTimestamp) {
            legacyExpired = legacyExpired || m.lock.expiredByTimestamp;
            legacyExpiresAt = qMax(legacyExpiresAt, m.lock.expiresAtMs);
        }
        if (m.key.hasExpiry())
            remaining << remainingPttl(m.key, nowMs);
        else if (m.lock.format != LockFormat::LegacyTimestamp)
            anyWithoutExpiry = true;
    }

    // Valid while `needed` masters still hold it: the needed-th longest remaining TTL, less the drift.
    std::sort(remaining.begin(), remaining.end(), std::greater<>());
    if (!remaining.isEmpty()) {
        const qint64 kth = view.holding >= view.needed && remaining.size() >= view.needed
                               ? remaining.at(view.needed - 1)
                               : remaining.first();
        const qint64 allowance = qint64(double(kth) * drift.driftFactor) + drift.driftConstantMs;
        view.validityMs = qMax<qint64>(0, kth - allowance);
    }

    const bool contested = counts.size() >= 2;
    if (contested)
        view.status = LockStatus::Contested;
    else if (view.holding < view.needed && view.holding + unreachable >= view.needed)
        view.status = LockStatus::Unknown;
    else if (view.holding == 0)
        view.status = unreachable > 0 ? LockStatus::Unknown : LockStatus::Partial;
    else if (anyWithoutExpiry || legacyExpired)
        view.status = LockStatus::Stuck;
    else if (view.holding >= view.needed)
        view.status = LockStatus::Held;
    else
        view.status = LockStatus::Partial;

    if (view.format == LockFormat::LegacyTimestamp && !legacyExpired && legacyExpiresAt >= 0 &&
        remaining.isEmpty())
        view.validityMs = -1; // shown from the timestamp, not a TTL; the UI reads expiresAtMs
    return view;
}

} // namespace lockscope
