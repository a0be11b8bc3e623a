// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "metrics/familyseries.h"

#include <QByteArray>
#include <QHash>
#include <QList>

#include <vector>

namespace lockscope {

// How each family of locks behaves, live, for `lockctl serve` (issue #44): LockActivity tells it
// each tenure it saw begin and end. The series are bounded: the first maxFamilies families seen
// active get their own, the rest share one named "other". A family keeps its series once it has
// one, so that its counters only go up.
//
// The headroom is judged on the latest holds (recentHolds of them), not on all since start: an
// alert should follow what the locks do now.
class FamilyActivity
{
public:
    static constexpr int maxFamilies = 50;
    static constexpr int recentHolds = 1024;
    static constexpr int recentLeases = 256;
    // Fewer holds than this give no headroom: a percentile of three holds is only their largest.
    static constexpr int minHoldsForHeadroom = 10;
    static inline const QByteArray otherFamily = QByteArrayLiteral("other");

    // The series `resource` counts in: its family's, or "other". Cheap enough per new lock; the
    // caller keeps it with the lock.
    int seriesOf(const QByteArray& resource);
    // A tenure seen beginning, with the validity it was first read with (-1: no expiry).
    void acquired(int series, qint64 leaseMs);
    // A tenure's end; `holdMs` -1 when its beginning was not seen (found by the first discovery).
    // The hold-time histogram and the headroom take released tenures only.
    void ended(int series, FamilySeries::Ending how, qint64 holdMs);

    QList<FamilySeries> snapshot() const;

private:
    struct Family
    {
        FamilySeries series;
        std::vector<qint32> recentHoldMs; // a ring of the latest holds
        size_t nextHold = 0;
        std::vector<qint32> recentLeaseMs;
        size_t nextLease = 0;
    };
    static double headroomOf(const Family& f);

    QHash<QByteArray, int> m_index;
    std::vector<Family> m_families;
    int m_other = -1;
};

} // namespace lockscope
