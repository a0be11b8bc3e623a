#include "batchqueue.h"

#include "locktablemodel.h"

#include <QElapsedTimer>

namespace lockscope {

namespace {
constexpr int minSlice = 50;
constexpr int maxSlice = 5000;
// A slice's cost is measured on the wall clock: under load the GUI thread gets a fraction of a
// core, and a slice that takes 12 ms of CPU freezes the window for several times that. Small
// slices keep each freeze short; the per-slice overhead at 100k rows is well under a millisecond.
constexpr qint64 slowUs = 6000; // above this a slice halves
constexpr qint64 fastUs = 2000; // below this it doubles

// Moves up to `budget` items from the front of `from` to `to`.
template <typename T> int take(QList<T>& from, QList<T>& to, int budget)
{
    const int n = int(qMin<qsizetype>(budget, from.size()));
    if (n <= 0)
        return 0;
    if (n == from.size()) {
        to.append(std::move(from));
        from.clear();
    } else {
        to.append(from.mid(0, n));
        from.remove(0, n);
    }
    return n;
}
} // namespace

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
    m_pending << batch;
    if (!m_timer.isActive())
        m_timer.start();
}

void BatchQueue::drainOne()
{
    if (m_pending.isEmpty())
        return;
    // Within one batch a resource appears once, so its parts may be cut in any order; batches stay
    // in order, so a later change never overtakes an earlier one.
    LockBatch& front = m_pending.first();
    LockBatch slice;
    int budget = m_slice;
    budget -= take(front.removed, slice.removed, budget);
    budget -= take(front.added, slice.added, budget);
    take(front.changed, slice.changed, budget);
    if (front.isEmpty())
        m_pending.removeFirst();

    QElapsedTimer clock;
    clock.start();
    m_model->apply(slice);
    emit applied(slice); // listeners (history, detail pane) are part of the slice's cost
    const qint64 elapsedUs = clock.nsecsElapsed() / 1000;
    if (elapsedUs > slowUs)
        m_slice = qMax(minSlice, m_slice / 2);
    else if (elapsedUs < fastUs)
        m_slice = qMin(maxSlice, m_slice * 2);
    if (m_pending.isEmpty())
        emit drained();
    else
        m_timer.start();
}

} // namespace lockscope
