// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"
#include "monitor/masterobservation.h"

#include <QList>

namespace lockscope {

class LockTable;

// What the monitor keeps of one resource: every master's last reading, the view it shows (null
// until the resource is shown) and the resource's budget of changes.
class LockEntry final
{
public:
    QList<MasterObservation> observed; // one per master; last known, even while a master is down
    qint64 refilledAtMs = -1;
    // A float, and the flags in the rest of its word.
    float budget = 3;      // emissions available now
    bool dirty = false;    // waiting in the monitor's list of changed resources
    bool deferred = false; // changed, but held back until the initial scan can show it whole

    bool isShown() const { return !m_view.isNull(); }
    // The view shown, as the batches carried it; the empty view while none is shown.
    const SharedLockView& view() const { return m_view; }

private:
    friend class LockTable; // which counts the views shown
    SharedLockView m_view;
};

// A million of them at the 1M benchmark: the view's pointer took the place of a second hash.
static_assert(sizeof(void*) != 8 || sizeof(LockEntry) <= 48);

} // namespace lockscope
