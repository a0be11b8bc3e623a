// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locking/redlock.h"

#include <QObject>
#include <QTimer>

namespace lockscope {

// Keeps a held lock alive: extends it well before its validity runs out, for as long as it is
// held. If an extension fails and no retry can succeed while the lease still lasts, the lock is
// reported lost (lost()) and no longer extended: the holder must stop relying on it at once.
class LockKeeper final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockKeeper)

public:
    // `redlock` must outlive this object.
    LockKeeper(Redlock* redlock, RedlockLease lease, QObject* parent = nullptr);

    const RedlockLease& lease() const { return m_lease; }
    bool isHeld() const { return m_state == State::Held; }
    bool isLost() const { return m_state == State::Lost; }

    // Starts extending, each time by the lease's TTL.
    void start();
    // Stops extending and releases the lock; `done` gets the release outcome.
    void release(Redlock::Done done);

signals:
    void extended(const lockscope::RedlockLease& lease);
    void lost(const QString& reason);

private:
    enum class State
    {
        Idle,
        Held,
        Lost,
        Released,
    };

    void scheduleNext(qint64 delayMs);
    void extendNow();
    void onExtended(const RedlockOutcome& outcome);
    void declareLost(const QString& reason);

    Redlock* m_redlock;
    RedlockLease m_lease;
    State m_state = State::Idle;
    bool m_extending = false;
    QTimer m_timer;
};

} // namespace lockscope
