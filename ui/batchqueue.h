#pragma once

#include "monitor/lockview.h"
#include "resourcekey.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <deque>

namespace lockscope {

class LockTableModel;

// Feeds the model in slices sized to stay well under a frame: a 100k-lock first pass arrives as
// batches of thousands, and applying one whole would freeze input. The slice grows while applying
// is cheap and halves when it is not; one slice per event-loop pass.
//
// What waits here is kept per resource: a newer view of a lock replaces the one still waiting
// (a reconciliation that arrives while the first pass is still being applied, or a lock that
// changes faster than the window catches up, costs one row update and one view in memory, not
// one per change), and a removal replaces a waiting view. A view after a waiting removal stays a
// separate step, so the history still sees the lock go and come back.
class BatchQueue final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BatchQueue)

public:
    static constexpr qint64 slowUs = 6000; // a slice that took longer halves
    static constexpr qint64 fastUs = 2000; // a full slice that took less doubles
    static constexpr int minSlice = 50;
    static constexpr int maxSlice = 5000;

    explicit BatchQueue(LockTableModel* model, QObject* parent = nullptr);

    void enqueue(const LockBatch& batch);
    bool isIdle() const { return m_items.empty(); }
    // Locks waiting (views and removals), each at most once unless it left and came back.
    qsizetype pending() const { return qsizetype(m_items.size()); }
    int sliceSize() const { return m_slice; }
    // Fixed slices (tests): no adapting to their cost.
    void setFixedSliceSize(int size) { m_slice = size, m_fixedSlice = true; }

signals:
    // A slice reached the model (rows already updated). Within a slice a resource appears once.
    void applied(const lockscope::LockBatch& slice);
    void drained();

private:
    struct Item
    {
        LockView view; // a removal: only the resource
        bool removal = false;
        bool added = false;
        bool barrier = false; // an earlier step of the same resource may be waiting: starts a slice
    };

    void push(Item&& item);
    void drainOne();
    void adaptSlice(qsizetype items, qint64 elapsedNs);

    LockTableModel* m_model;
    std::deque<Item> m_items;
    qint64 m_headSeq = 0;              // sequence number of m_items.front()
    QHash<ResourceKey, qint64> m_last; // each waiting resource's last step, by sequence number
    QTimer m_timer;
    int m_slice = 500;
    bool m_fixedSlice = false;
};

} // namespace lockscope
