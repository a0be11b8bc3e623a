// SPDX-License-Identifier: Apache-2.0
#include "session/viewbacklog.h"

namespace lockscope {

void ViewBacklog::add(const LockBatch& batch)
{
    using Step = LockStepQueue<HashedKey>::Step;
    for (const QByteArray& r : batch.removed)
        m_steps.push(Step{HashedKey(r), true, false, false});
    for (const QList<SharedLockView>* list : {&batch.added, &batch.changed})
        for (const LockView& v : *list)
            m_steps.push(Step{v.key(), false, list == &batch.added, false});
}

LockBatch ViewBacklog::take(qsizetype max, const LockTable& views)
{
    LockBatch batch;
    qsizetype taken = 0;
    // One batch may hold a lock's removal and its return: a view never waits ahead of a removal of
    // the same lock (the removal takes its place), and a batch's removals are applied first.
    while (!m_steps.isEmpty() && taken < max) {
        auto step = m_steps.takeFront();
        ++taken;
        if (step.removal) {
            batch.removed << step.entry.bytes();
            continue;
        }
        const SharedLockView* view = views.find(step.entry);
        if (!view)
            continue;
        (step.added ? batch.added : batch.changed) << *view;
    }
    return batch;
}

} // namespace lockscope
