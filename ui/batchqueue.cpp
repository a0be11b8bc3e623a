#include "batchqueue.h"

#include "locktablemodel.h"

#include <QElapsedTimer>

namespace lockscope {

BatchQueue::BatchQueue(LockTableModel* model, QObject* parent) : QObject(parent), m_model(model)
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

    QElapsedTimer clock;
    clock.start();
    m_model->apply(slice);
    emit applied(slice); // listeners (history, detail pane) are part of the slice's cost
    adaptSlice(count, clock.nsecsElapsed());
    emit taken(count);
    if (m_steps.isEmpty())
        emit drained();
    else
        m_timer.start();
}

void BatchQueue::adaptSlice(qsizetype items, qint64 elapsedNs)
{
    if (m_fixedSlice || items <= 0)
        return;
    // A slice's cost is measured on the wall clock: under load the GUI thread gets a fraction of a
    // core, and a slice that takes 12 ms of CPU freezes the window for several times that. Small
    // slices keep each freeze short; the per-slice overhead at 100k rows is well under a millisecond.
    const qint64 elapsedUs = elapsedNs / 1000;
    if (elapsedUs > slowUs)
        m_slice = qMax(minSlice, m_slice / 2);
    else if (elapsedUs < fastUs && items >= m_slice)
        m_slice = qMin(maxSlice, m_slice * 2);
}

} // namespace lockscope
