// SPDX-License-Identifier: Apache-2.0
#include "locking/lockkeeper.h"

#include "base/monotonicclock.h"

#include <QPointer>

#include <algorithm>

namespace lockscope {

LockKeeper::LockKeeper(Redlock* redlock, RedlockLease lease, QObject* parent)
    : QObject(parent), m_redlock(redlock), m_lease(std::move(lease))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &LockKeeper::extendNow);
}

void LockKeeper::start()
{
    if (m_state != State::Idle)
        return;
    m_state = State::Held;
    // A third of the validity, as Redisson's watchdog does: two more chances before it runs out.
    scheduleNext(m_lease.remainingMs(monotonicNs()) / 3);
}

void LockKeeper::scheduleNext(qint64 delayMs)
{
    m_timer.start(int(std::clamp<qint64>(delayMs, 0, Redlock::maxTtlMs)));
}

void LockKeeper::extendNow()
{
    if (m_state != State::Held || m_extending)
        return;
    const qint64 remaining = m_lease.remainingMs(monotonicNs());
    if (m_lease.validityKnown() && remaining <= 0)
        return declareLost(QStringLiteral("the lease ran out before it could be extended"));
    m_extending = true;
    m_redlock->extend(m_lease, m_lease.ttlMs,
                      [self = QPointer<LockKeeper>(this)](const RedlockOutcome& outcome) {
                          if (self)
                              self->onExtended(outcome);
                      });
}

void LockKeeper::onExtended(const RedlockOutcome& outcome)
{
    m_extending = false;
    if (m_state != State::Held)
        return;
    if (outcome.ok()) {
        m_lease = outcome.lease;
        emit extended(m_lease);
        scheduleNext(m_lease.remainingMs(monotonicNs()) / 3);
        return;
    }
    // A quorum of masters that no longer have our token is final: someone else may hold it now.
    int gone = 0;
    for (const MasterVote& vote : outcome.votes)
        gone += vote.answer == MasterVote::Answer::No ? 1 : 0;
    if (!writeWasSent(outcome.verdict) || gone > outcome.total - outcome.needed)
        return declareLost(outcome.error.message);
    // Masters unreachable for now: retry while a retry could still land inside the validity.
    const qint64 remaining = m_lease.remainingMs(monotonicNs());
    const qint64 retryIn = qMax<qint64>(10, remaining / 4);
    if (remaining - retryIn <= m_redlock->settings().masterTimeoutMs)
        return declareLost(QStringLiteral("could not extend in time: %1").arg(outcome.error.message));
    scheduleNext(retryIn);
}

void LockKeeper::declareLost(const QString& reason)
{
    m_timer.stop();
    m_state = State::Lost;
    emit lost(reason);
}

void LockKeeper::release(Redlock::Done done)
{
    m_timer.stop();
    if (m_state == State::Held || m_state == State::Idle)
        m_state = State::Released;
    // Released even when lost: the token check keeps this from touching anyone else's lock, and
    // masters that still have ours should not wait for it to expire.
    m_redlock->release(m_lease, std::move(done));
}

} // namespace lockscope
