#pragma once

#include "monitor/lockview.h"

#include <QObject>
#include <QTimer>

namespace lockscope {

class LockTableModel;

// Feeds the model in slices sized to stay well under a frame: a 100k-lock first pass arrives as
// batches of thousands, and applying one whole would freeze input. The slice grows while applying
// is cheap and halves when it is not; one slice per event-loop pass.
class BatchQueue final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BatchQueue)

public:
    explicit BatchQueue(LockTableModel* model, QObject* parent = nullptr);

    void enqueue(const LockBatch& batch);
    bool isIdle() const { return m_pending.isEmpty(); }
    int sliceSize() const { return m_slice; }

signals:
    // A slice reached the model (rows already updated).
    void applied(const lockscope::LockBatch& slice);
    void drained();

private:
    void drainOne();

    LockTableModel* m_model;
    QList<LockBatch> m_pending;
    QTimer m_timer;
    int m_slice = 500;
};

} // namespace lockscope
