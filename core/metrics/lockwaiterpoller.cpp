// SPDX-License-Identifier: Apache-2.0
#include "metrics/lockwaiterpoller.h"

#include "monitor/lockmonitor.h"

namespace lockscope {

LockWaiterPoller::LockWaiterPoller(MasterSet* masters, LockMonitor* monitor, int intervalMs, QObject* parent)
    : QObject(parent), m_reader(masters), m_monitor(monitor)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &LockWaiterPoller::poll);
}

void LockWaiterPoller::start()
{
    m_timer.start();
}

double LockWaiterPoller::waitersOf(const LockView& view)
{
    if (!DiagnosisReader::knowsWaiters(view.format))
        return -1;
    m_asked.insert(view.resource);
    return double(m_waiters.value(view.resource, -1));
}

void LockWaiterPoller::poll()
{
    // Masters slow to answer: the round before is still out, and piling up more would not help.
    if (m_pending > 0)
        return;
    if (!m_asked.isEmpty()) {
        m_polled = std::move(m_asked);
        m_asked.clear();
    }
    // Locks that lost their series (or went) keep no value.
    for (auto it = m_waiters.begin(); it != m_waiters.end();)
        it = m_polled.contains(it.key()) ? std::next(it) : m_waiters.erase(it);
    const LockTable& locks = m_monitor->locks();
    for (const QByteArray& resource : std::as_const(m_polled)) {
        const SharedLockView* view = locks.find(resource);
        if (!view || !DiagnosisReader::knowsWaiters((*view)->format)) {
            m_waiters.remove(resource);
            continue;
        }
        ++m_pending;
        m_reader.readWaiters(*view, [this, resource](const DiagnosisFacts& facts) {
            --m_pending;
            const LockWaiters& w = facts.waiters;
            if (w.known)
                m_waiters.insert(resource, w.count());
            else
                m_waiters.remove(resource); // no master answered: unknown, not 0
        });
    }
}

} // namespace lockscope
