// SPDX-License-Identifier: Apache-2.0
#include "locks/batchqueue.h"

#include "base/monotonicclock.h"
#include "locks/locktablemodel.h"

#include <utility>

namespace lockscope {

BatchQueue::BatchQueue(LockTableModel* model, QObject* parent)
    : QObject(parent), m_model(model), m_wallNs(&monotonicNs), m_cpuNs(&threadCpuNs)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &BatchQueue::drainOne);
}

void BatchQueue::enqueue(const LockBatch& batch)
{
    if (batch.isEmpty())
        return;
    const qsizetype before = m_steps.size();
    using Step = LockStepQueue<Queued>::Step;
    for (const QByteArray& r : batch.removed)
        m_steps.push(Step{{{}, r}, true, false, false});
    for (const QList<SharedLockView>* list : {&batch.added, &batch.changed})
        for (const SharedLockView& v : *list)
            m_steps.push(Step{{v, {}}, false, list == &batch.added, false});
    if (const qsizetype folded = batch.steps() - (m_steps.size() - before); folded > 0)
        emit taken(folded);
    if (!m_steps.isEmpty() && !m_timer.isActive())
        m_timer.start();
}

void BatchQueue::drainOne()
{
    if (m_steps.isEmpty())
        return;
    LockBatch slice;
    qsizetype count = 0;
    while (!m_steps.isEmpty() && count < m_slice) {
        if (m_steps.front().barrier && count > 0)
            break;
        auto step = m_steps.takeFront();
        if (step.removal)
            slice.removed << std::move(step.entry.removed);
        else
            (step.added ? slice.added : slice.changed) << std::move(step.entry.view);
        ++count;
    }

    const qint64 wallStartNs = m_wallNs();
    const qint64 cpuStartNs = m_cpuNs();
    m_model->apply(slice);
    emit applied(slice); // listeners (history, detail pane) are part of the slice's cost
    adaptSlice(count, slice.added.size(), m_wallNs() - wallStartNs, m_cpuNs() - cpuStartNs);
    emit taken(count);
    if (m_steps.isEmpty())
        emit drained();
    else
        m_timer.start();
}

void BatchQueue::adaptSlice(qsizetype items, qsizetype added, qint64 elapsedNs, qint64 cpuNs)
{
    if (m_fixedSlice || items <= 0)
        return;
    // A slice's cost is measured on the wall clock: under load the GUI thread gets a fraction of a
    // core, and a slice that takes 12 ms of CPU freezes the window for several times that. Small
    // slices keep each freeze short; the per-slice overhead at 100k rows is well under a millisecond.
    const qint64 elapsedUs = elapsedNs / 1000;
    const qint64 cpuUs = cpuNs / 1000;
    // The fixed cost is that of merging new rows into the table: slices that add none (changes,
    // removals) are judged without it, or sized for it they would stall for as long.
    const bool adds = added > 0;
    if (adds)
        learnFixedCost(items, cpuUs);
    const bool fixed = adds && m_fixedUs > 0;
    // With a fixed cost, what a slice adds to it decides: a smaller slice would freeze about as
    // long (longer still on a busy machine, which stretches the fixed part too) and pay it again.
    const bool slow = elapsedUs > slowUs && (!fixed || cpuUs > 2 * m_fixedUs);
    const bool fast = elapsedUs < fastUs || (fixed && cpuUs < m_fixedUs + m_fixedUs / 2);
    if (slow) {
        // At the smallest slice a slow one may be all fixed cost: a slice twice the size tells.
        m_slice = adds && !fixed && m_slice <= minSlice ? 2 * minSlice : qMax(minSlice, m_slice / 2);
    } else if (fast && items >= m_slice) {
        m_slice = qMin(maxSlice, m_slice * 2);
    }
}

void BatchQueue::learnFixedCost(qsizetype items, qint64 cpuUs)
{
    if (m_fixedUs > 0 && ++m_fixedAge > fixedCostLifetime)
        m_fixedUs = 0; // measured again: the table may have shrunk since
    const AddingSlice last = std::exchange(m_lastAdding, {items, cpuUs});
    const qsizetype small = qMin(last.items, items);
    const qsizetype large = qMax(last.items, items);
    if (small <= 0 || 2 * large < 3 * small)
        return; // too close in size: the line through them would be mostly noise
    // On the line through the two: what a slice of no rows costs. In the thread's CPU time: a busy
    // moment that kept one of them waiting for a core would pass on the wall clock for a fixed
    // cost that is not there. Only a fixed cost of half of "slow" or more counts: on a busy machine
    // that alone makes a slice slow; below it halving gets there (100k rows merge in about a
    // millisecond, a million in 15 to 30).
    const qint64 fixedUs = qBound<qint64>(0, (last.items * cpuUs - items * last.cpuUs) / (last.items - items),
                                          qMin(cpuUs, last.cpuUs));
    m_fixedUs = fixedUs >= slowUs / 2 ? fixedUs : 0;
    m_fixedAge = 0;
}

} // namespace lockscope
