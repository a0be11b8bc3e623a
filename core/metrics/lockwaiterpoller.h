// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosisreader.h"
#include "formats/lockformat.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace lockscope {

class LockMonitor;
class MasterSet;

// The waiters behind lockscope_lock_waiters, for the locks whose layout makes them known: the
// clients subscribed to a Redisson lock's channel, the fair lock's queue (DiagnosisReader). Reading
// them costs a round trip per lock, so it is done here, on the monitor's thread, at most every
// `intervalMs`, asynchronously; a scrape never waits for it and shows the last values read.
//
// Which locks are read: those a scrape rendered per-lock series for (bounded by --max-lock-series),
// as waitersOf() learns when the renderer asks it.
class LockWaiterPoller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockWaiterPoller)

public:
    static constexpr int defaultIntervalMs = 5000;

    LockWaiterPoller(MasterSet* masters, LockMonitor* monitor, int intervalMs = defaultIntervalMs,
                     QObject* parent = nullptr);

    void start();
    // MetricsInput::waiters: the last count read for the lock, -1 when not known (yet, or at all
    // for its format). A lock asked about is read in the next round.
    double waitersOf(const LockView& view);

private:
    void poll();

    DiagnosisReader m_reader;
    LockMonitor* m_monitor;
    QTimer m_timer;
    QSet<QByteArray> m_asked;  // locks a scrape rendered since the last round
    QSet<QByteArray> m_polled; // the locks of the last round (kept while nobody scrapes)
    QHash<QByteArray, qint64> m_waiters;
    int m_pending = 0; // reads of the current round not answered yet
};

} // namespace lockscope
