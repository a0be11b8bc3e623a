#pragma once

#include "monitor/lockstatus.h"
#include "monitor/masterobservation.h"

#include <QList>
#include <QMetaType>

namespace lockscope {

// A resource (one key name) across all masters: the quorum view.
struct LockView
{
    QByteArray resource;
    LockStatus status = LockStatus::Unknown;
    LockFormat format = LockFormat::Unknown;
    QByteArray token; // the most common token
    QString owner;
    int holding = 0;         // masters holding `token`
    int needed = 1;          // N/2+1
    int total = 1;           // N
    bool atRisk = false;     // a master holding it restarted (and may have forgotten it); here, not
                             // at the end, it fills the ints' padding: a view is kept per resource
    qint64 validityMs = -1;  // remaining validity at computedAtMs, minus drift; -1: no expiry known
    qint64 computedAtMs = 0; // monotonic ms
    QList<int> holders;      // indexes of the masters holding `token`
    QList<MasterObservation> observations; // one per master, in master order
    QString atRiskReason;

    // Validity left now, counting down from the last computation; -1 when there is no expiry.
    qint64 validityAt(qint64 nowMs) const
    {
        return validityMs < 0 ? -1 : qMax<qint64>(0, validityMs - (nowMs - computedAtMs));
    }
};

// Changes leave the monitor in batches, so views update rows instead of resetting models.
struct LockBatch
{
    QList<LockView> added;
    QList<LockView> changed;
    QList<QByteArray> removed;

    bool isEmpty() const { return added.isEmpty() && changed.isEmpty() && removed.isEmpty(); }
    // What a table applies one at a time: a view or a removal each.
    qsizetype steps() const { return added.size() + changed.size() + removed.size(); }
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::LockView)
Q_DECLARE_METATYPE(lockscope::LockBatch)
