// SPDX-License-Identifier: Apache-2.0
#include "monitor/quorumcalculator.h"

#include <QVarLengthArray>

#include <algorithm>

namespace lockscope {

namespace {

// 0, 1, ..., total - 1: the holders of nearly every lock, which all its views share instead of
// allocating the same list once per lock (a view is kept per resource, in the monitor and the window).
// Per thread: built without a lock; QList's shared count is atomic, so the copies may travel.
QList<int> everyMaster(int total)
{
    thread_local QList<QList<int>> lists;
    if (total >= lists.size()) {
        const qsizetype from = lists.size();
        lists.resize(total + 1);
        for (qsizetype n = from; n <= total; ++n) {
            lists[n].reserve(n);
            for (int i = 0; i < n; ++i)
                lists[n] << i;
        }
    }
    return lists.at(total);
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

    // N is small (a handful of masters): a linear tally beats hashing, and allocates nothing.
    struct Tally
    {
        const QByteArray* token;
        int count;
        qint64 longest; // remaining PTTL of its longest-lived holder; max for no expiry
    };
    QVarLengthArray<Tally, 8> tallies;
    int unreachable = 0;
    for (const MasterObservation& m : observations) {
        if (m.error().isError()) {
            ++unreachable;
            continue;
        }
        if (!m.present() || m.lock().auxiliary)
            continue;
        const qint64 left = m.hasExpiry() ? m.pttlAt(nowMs) : std::numeric_limits<qint64>::max();
        Tally* t = std::find_if(tallies.begin(), tallies.end(),
                                [&](const Tally& x) { return *x.token == m.lock().token; });
        if (t == tallies.end())
            tallies.append({&m.lock().token, 1, left});
        else {
            ++t->count;
            t->longest = qMax(t->longest, left);
        }
    }

    // The majority token; ties go to the token whose holders expire last, then to the smaller token,
    // so the same inputs always give the same answer.
    const Tally* best = nullptr;
    for (const Tally& t : tallies)
        if (!best || t.count > best->count ||
            (t.count == best->count &&
             (t.longest > best->longest || (t.longest == best->longest && *t.token < *best->token))))
            best = &t;
    if (best) {
        view.token = *best->token;
        view.holding = best->count;
    }

    QVarLengthArray<qint64, 8> remaining;
    QVarLengthArray<int, 8> holders;
    bool anyWithoutExpiry = false;
    bool legacyExpired = false;
    for (int i = 0; i < observations.size(); ++i) {
        const MasterObservation& m = observations.at(i);
        if (m.error().isError() || !m.present() || m.lock().auxiliary || m.lock().token != view.token)
            continue;
        holders << i;
        if (view.format == LockFormat::Unknown || view.owner.isEmpty()) {
            view.format = m.lock().format;
            view.owner = m.lock().owner;
        }
        if (m.lock().format == LockFormat::LegacyTimestamp) {
            // Its timestamp is its expiry (no Redis TTL): counted down from when it was read, and
            // past once that reaches 0 even before the key is read again.
            const bool known = !m.lock().expiredByTimestamp && m.lock().timestampLeftMs() >= 0;
            const qint64 left = known ? m.lock().timestampLeftMs() - (nowMs - m.readAtMs()) : -1;
            const bool expired = m.lock().expiredByTimestamp || (known && left <= 0);
            legacyExpired = legacyExpired || expired;
            if (!m.hasExpiry() && known && !expired)
                remaining << left;
        }
        if (m.hasExpiry())
            remaining << m.pttlAt(nowMs);
        else if (m.lock().format != LockFormat::LegacyTimestamp)
            anyWithoutExpiry = true;
    }
    if (holders.size() == view.total)
        view.holders = everyMaster(view.total);
    else if (!holders.isEmpty())
        view.holders = QList<int>(holders.begin(), holders.end()); // one allocation, of the right size

    // Valid while `needed` masters still hold it: the needed-th longest remaining TTL, less the drift.
    std::sort(remaining.begin(), remaining.end(), std::greater<>());
    if (!remaining.isEmpty()) {
        const qint64 kth = view.holding >= view.needed && remaining.size() >= view.needed
                               ? remaining.at(view.needed - 1)
                               : remaining.first();
        const qint64 allowance = qint64(double(kth) * drift.driftFactor) + drift.driftConstantMs;
        view.validityMs = qMax<qint64>(0, kth - allowance);
    }

    const bool contested = tallies.size() >= 2;
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

    if (legacyExpired && view.status == LockStatus::Stuck)
        view.validityMs = -1; // its timestamp has passed: it expires by no clock any more
    return view;
}

} // namespace lockscope
