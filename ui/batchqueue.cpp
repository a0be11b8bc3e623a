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
    for (const QByteArray& r : batch.removed) {
        Item item;
        item.view.resource = r;
        item.removal = true;
        push(std::move(item));
    }
    for (const QList<LockView>* list : {&batch.added, &batch.changed})
        for (const LockView& v : *list)
            push(Item{v, false, list == &batch.added, false});
    if (!m_items.empty() && !m_timer.isActive())
        m_timer.start();
}

void BatchQueue::push(Item&& item)
{
    const qint64 seq = m_headSeq + qint64(m_items.size());
    auto last = m_last.find(ResourceKey(item.view.resource));
    if (last == m_last.end()) {
        m_last.insert(ResourceKey(item.view.resource), seq);
        m_items.push_back(std::move(item));
        return;
    }
    Item& waiting = m_items[size_t(*last - m_headSeq)];
    if (waiting.removal && item.removal)
        return;
    if (!waiting.removal) {
        // Superseded before it was shown: the newer view (or the removal) takes its place. A lock
        // added and changed is still new to the model.
        item.added = item.added || waiting.added;
        item.barrier = waiting.barrier;
        waiting = std::move(item);
        return;
    }
    // Back after a removal that is still waiting: a step of its own, in a later slice.
    item.barrier = true;
    *last = seq;
    m_items.push_back(std::move(item));
}

void BatchQueue::drainOne()
{
    if (m_items.empty())
        return;
    LockBatch slice;
    qsizetype taken = 0;
    while (!m_items.empty() && taken < m_slice) {
        Item& item = m_items.front();
        if (item.barrier && taken > 0)
            break;
        const ResourceKey key(item.view.resource);
        if (auto last = m_last.find(key); last != m_last.end() && *last == m_headSeq)
            m_last.erase(last);
        if (item.removal)
            slice.removed << std::move(item.view.resource);
        else
            (item.added ? slice.added : slice.changed) << std::move(item.view);
        m_items.pop_front();
        ++m_headSeq;
        ++taken;
    }

    QElapsedTimer clock;
    clock.start();
    m_model->apply(slice);
    emit applied(slice); // listeners (history, detail pane) are part of the slice's cost
    adaptSlice(taken, clock.nsecsElapsed());
    if (m_items.empty()) {
        // Nothing waits, so the index is empty, but a hash keeps its largest size: that of a first
        // pass of a million locks, all of it queued at once.
        if (m_last.capacity() > 4096)
            m_last.clear();
        emit drained();
    } else
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
