// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"
#include "session/lockstepqueue.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace lockscope {

class LockTableModel;

// Feeds the model in slices sized to stay well under a frame: a 100k-lock first pass arrives as
// batches of thousands, and applying one whole would freeze input. The slice grows while applying
// is cheap and halves when it is not; one slice per event-loop pass.
//
// Unless shrinking does not help: a sorted table of a million rows merges new rows in O(rows) per
// slice, whatever the slice's size, and halving down to 50 rows paid that 20,000 times (the first
// view of a million locks took 200 s). Two slices of different sizes that add rows tell the cost of
// one of no rows, in CPU time; when that fixed cost is half of "slow" or more, a slice that adds
// rows is slow only when it costs twice that, for a while. Changes and removals merge nothing.
//
// What waits here is kept per resource (LockStepQueue): a lock that changes faster than the window
// catches up costs one row update and one view in memory, not one per change. How much can wait
// here at all is the core's to bound (CoreService holds back what the window has not taken in).
class BatchQueue final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BatchQueue)

public:
    static constexpr qint64 slowUs = 6000; // a slice that took longer halves
    static constexpr qint64 fastUs = 2000; // a full slice that took less doubles
    static constexpr int minSlice = 50;
    static constexpr int maxSlice = 5000;
    static constexpr int fixedCostLifetime = 64; // slices, then it is measured again

    explicit BatchQueue(LockTableModel* model, QObject* parent = nullptr);

    void enqueue(const LockBatch& batch);
    // Drops what waits (the masters it came from are gone).
    void clear() { m_steps = {}; }
    bool isIdle() const { return m_steps.isEmpty(); }
    // Locks waiting (views and removals), each at most once unless it left and came back.
    qsizetype pending() const { return m_steps.size(); }
    int sliceSize() const { return m_slice; }
    // What every slice costs whatever its size, as last measured (0: none found).
    qint64 fixedCostUs() const { return m_fixedUs; }
    // Fixed slices (tests): no adapting to their cost.
    void setFixedSliceSize(int size) { m_slice = size, m_fixedSlice = true; }
    // Where a slice's cost is read (tests of the adapting itself): by default the monotonic clock
    // and the thread's CPU time. On a virtual machine the CPU time also carries what the host stole
    // from the guest (a shared CI runner: 6 ms inside one 12 ms slice was seen), so a test that
    // asserts the exact slices its costs lead to gives the costs on a clock of its own.
    using Clock = std::function<qint64()>;
    void setCostClocks(Clock wallNs, Clock cpuNs)
    {
        m_wallNs = std::move(wallNs), m_cpuNs = std::move(cpuNs);
    }

signals:
    // A slice reached the model (rows already updated). Within a slice a resource appears once.
    void applied(const lockscope::LockBatch& slice);
    void drained();
    // This many of the steps enqueued (a batch's views and removals) are done with: applied, or
    // folded into one still waiting. Once idle, they add up to every step enqueued.
    void taken(qsizetype steps);

private:
    // A step's load: the monitor's view, or for a removal only the name (no view made for it).
    struct Queued
    {
        SharedLockView view;
        QByteArray removed;

        friend HashedKey keyOf(const Queued& q)
        {
            return q.removed.isEmpty() ? q.view->key() : HashedKey(q.removed);
        }
    };

    void drainOne();
    void adaptSlice(qsizetype items, qsizetype added, qint64 elapsedNs, qint64 cpuNs);
    // From this slice and the last that added rows: what a slice costs whatever its size.
    void learnFixedCost(qsizetype items, qint64 cpuUs);

    LockTableModel* m_model;
    LockStepQueue<Queued> m_steps; // a barrier starts a new slice
    QTimer m_timer;
    int m_slice = 500;
    bool m_fixedSlice = false;
    // The last slice that added rows: its size and CPU time, a point on the line of its cost.
    struct AddingSlice
    {
        qsizetype items = 0;
        qint64 cpuUs = 0;
    };
    AddingSlice m_lastAdding;
    Clock m_wallNs;
    Clock m_cpuNs;
    qint64 m_fixedUs = 0;
    int m_fixedAge = 0;
};

} // namespace lockscope
