// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/locktable.h"
#include "session/lockstepqueue.h"

#include <QHash>

namespace lockscope {

// What the window has not been sent yet while it catches up: the resources whose views changed,
// in order, each once (LockStepQueue), by name only. The views themselves are the monitor's, read
// as the steps leave: a lock that changed a hundred times while the window was busy goes out once,
// as it is now, and waiting costs a name, not a copy of the view.
class ViewBacklog
{
public:
    bool isEmpty() const { return m_steps.isEmpty(); }
    qsizetype size() const { return m_steps.size(); }
    // A mark behind what waits now, and whether all of that has left (what came later may wait still).
    qint64 mark() const { return m_steps.endSequence(); }
    bool hasLeft(qint64 mark) const { return m_steps.headSequence() >= mark; }

    void add(const LockBatch& batch);
    // Up to `max` steps, oldest first, with each resource's view as `views` holds it now; a step
    // whose resource is gone from `views` is left out (its removal is a later step).
    LockBatch take(qsizetype max, const LockTable& views);

private:
    LockStepQueue<HashedKey> m_steps;
};

} // namespace lockscope
