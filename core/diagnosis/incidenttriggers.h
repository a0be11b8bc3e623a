// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QByteArray>
#include <QHash>
#include <QList>

#include <limits>

namespace lockscope {

// Which resources a batch of recorded events may have given a new incident (two holders at
// once), so that the live watch reads back only those: a second token held beside the first; a
// holder taken soon after the last one expired or was lost; any take within minutes of a master's
// restart or failover (a replacement in place then may be a lost lock taken again). A replacement
// in place with none of these is at most a possible incident: `lockctl incidents` finds it later.
//
// Keeps only the resources whose last holder expired or was lost within the last minute.
class IncidentTriggers
{
public:
    // After a restart or failover, takes are suspect this long (the longest lease worth watching).
    static constexpr qint64 topologyWindowMs = 10 * 60 * 1000;
    // After an expiry or a loss, a take is suspect this long.
    static constexpr qint64 endWindowMs = 60 * 1000;

    // The resources of `events` worth judging again, each once, in the order first met.
    QList<QByteArray> suspects(const RecordEventList& events);
    // Resources remembered (for the tests of its bound).
    qsizetype remembered() const { return m_endedUntil.size(); }

private:
    void forgetOld(qint64 nowMs);

    QHash<QByteArray, qint64> m_endedUntil; // resource -> a take before then is suspect
    qint64 m_topologyUntilMs = -1;
    qint64 m_forgetAtSize = 1024;
    qint64 m_forgetAtMs = std::numeric_limits<qint64>::min(); // the first batch sets it
};

} // namespace lockscope
