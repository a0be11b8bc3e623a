// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/waiterwatch.h"

#include "monitor/lockmonitor.h"
#include "record/recorder.h"

namespace lockscope {

namespace {

// Locks read per round, taken in turn when more are watched.
constexpr int maxLocksPerRound = 256;

} // namespace

WaiterWatch::WaiterWatch(MasterSet* masters, LockMonitor* monitor, int intervalMs, QObject* parent)
    : QObject(parent), m_reader(masters), m_monitor(monitor)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &WaiterWatch::poll);
    connect(monitor, &LockMonitor::locksChanged, this, &WaiterWatch::onBatch);
    for (auto it = monitor->locks().begin(); it != monitor->locks().end(); ++it)
        if (DiagnosisReader::knowsWaiters((*it).format))
            watch(it.key());
}

WaiterWatch* WaiterWatch::recordInto(Recorder* recorder, MasterSet* masters, LockMonitor* monitor,
                                     int intervalMs)
{
    auto* watch = new WaiterWatch(masters, monitor, intervalMs, recorder);
    connect(watch, &WaiterWatch::waitersChanged, recorder,
            [recorder](int master, const QByteArray& resource, qint64 count) {
                recorder->note(waitersEvent(master, resource, count));
            });
    watch->start();
    return watch;
}

void WaiterWatch::start()
{
    m_timer.start();
}

void WaiterWatch::onBatch(const LockBatch& batch)
{
    for (const QList<SharedLockView>* views : {&batch.added, &batch.changed})
        for (const SharedLockView& view : *views) {
            if (DiagnosisReader::knowsWaiters(view->format))
                watch(view->resource);
            else if (m_watched.remove(view->resource))
                m_last.remove(view->resource);
        }
    // A released lock's waiters are left as last read: they are what waits while it is free.
    for (const QByteArray& resource : batch.removed)
        m_watched.remove(resource);
}

void WaiterWatch::watch(const QByteArray& resource)
{
    if (m_watched.size() < maxWatched)
        m_watched.insert(resource);
}

void WaiterWatch::poll()
{
    // Masters slow to answer: the round before is still out, and piling up more would not help.
    if (m_pending > 0 || m_watched.isEmpty())
        return;
    // A count above 0 is kept while its lock is free (and a while after): were it forgotten, the
    // last waiter taking the lock would read as 0 = "nothing changed", and the recording would keep
    // clients waiting that no longer are.
    for (auto it = m_last.begin(); it != m_last.end();) {
        const bool gone = !m_watched.contains(it.key()) && !m_monitor->locks().contains(it.key());
        it = gone && (it.value() == 0 || m_last.size() > maxWatched) ? m_last.erase(it) : std::next(it);
    }
    if (m_offset >= m_watched.size())
        m_offset = 0;
    QList<QByteArray> round;
    qsizetype skipped = 0;
    for (const QByteArray& resource : std::as_const(m_watched)) {
        if (skipped++ < m_offset)
            continue;
        round << resource;
        if (round.size() == maxLocksPerRound)
            break;
    }
    m_offset += round.size();
    for (const QByteArray& resource : std::as_const(round)) {
        const SharedLockView* view = m_monitor->locks().find(resource);
        if (!view)
            continue;
        ++m_pending;
        m_reader.readWaiters(*view, [this, resource](const DiagnosisFacts& facts) {
            --m_pending;
            const LockWaiters& w = facts.waiters;
            if (!w.known) // no master answered: unknown, not 0
                return;
            const qint64 count = w.count();
            if (m_last.value(resource, 0) == count)
                return;
            m_last.insert(resource, count);
            emit waitersChanged(w.master, resource, count);
        });
    }
}

} // namespace lockscope
