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
    if (m_items.empty())
        emit drained();
    else
        m_timer.start();
}

void BatchQueue::adaptSlice(qsizetype items, qint64 elapsedNs)
{
    if (m_fixedSlice || items <= 0)
        return;
    // Sized from the cost per lock (smoothed), not by doubling and halving: doubling overshoots
    // into a slice twice too long before it halves again, and those overshoots were the longest
    // freezes while a first pass was applied.
    const double perItem = double(elapsedNs) / double(items);
    m_nsPerItem = m_nsPerItem <= 0 ? perItem : 0.5 * m_nsPerItem + 0.5 * perItem;
    const double fits = double(sliceBudgetUs) * 1000.0 / qMax(1.0, m_nsPerItem);
    // Growing at most fourfold per slice: a cheap slice of a few locks says little about a large one.
    m_slice = int(qBound(double(minSlice), qMin(fits, 4.0 * m_slice), double(maxSlice)));
}

} // namespace lockscope
