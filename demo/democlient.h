// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "demo/demofencedstorage.h"
#include "demo/demotask.h"
#include "locking/redlock.h"

#include <QList>
#include <QObject>
#include <QTimer>

namespace lockscope {

class DemoFencingCounter;

// A simulated application instance that uses the core's Redlock: it contends for resources in a loop
// (background mode) or runs scripted tasks (scenarios). Its "pause" is a simulated stop-the-world
// inside the client: its timers stop, nothing is renewed, and when it resumes it carries on as if no
// time had passed, writing with the fencing number it still holds.
class DemoClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoClient)

public:
    enum class State
    {
        Idle,
        Acquiring,
        Working,
        Paused,
        Releasing,
        Expiring, // done with the lock, waiting for its validity to end
    };
    Q_ENUM(State)

    // Everything passed must outlive this object.
    DemoClient(int index, QString name, Redlock* redlock, DemoFencingCounter* fencing,
               DemoFencedStorage* storage, QObject* parent = nullptr);

    int index() const { return m_index; }
    const QString& name() const { return m_name; }
    State state() const { return m_state; }
    bool isHolding() const { return m_holding; }
    // Holding `resource` with its fencing number, announced by acquired(): the simulation knows of
    // the hold. isHolding() turns true a round trip earlier, when the quorum said yes.
    bool holds(const QByteArray& resource) const { return m_announced && m_lease.resource == resource; }
    bool isPaused() const { return m_state == State::Paused || m_pendingPauseMs > 0; }
    const RedlockLease& lease() const { return m_lease; }
    qint64 fencing() const { return m_fencing; }

    // Background mode: picks one of `tasks` at random, again and again, with idle gaps.
    void setBackgroundTasks(const QList<DemoTask>& tasks) { m_background = tasks; }
    void startLoop();
    void stopLoop();
    bool isLooping() const { return m_looping; }
    // One scripted task (also fine while looping: it runs next).
    void run(const DemoTask& task);
    // Stop the world for `ms`. While holding, the pause falls between the validity check and the
    // write; otherwise (acquiring, releasing) it starts at the next such point.
    void pauseFor(qint64 ms);
    void stop();

signals:
    void stateChanged(int client, lockscope::DemoClient::State state);
    void acquired(int client, const lockscope::RedlockLease& lease, qint64 fencing);
    void acquireFailed(int client, const QByteArray& resource, const lockscope::RedlockOutcome& outcome);
    // `atMs` (monotonic) is when the client stopped believing it held the lock.
    void holdEnded(int client, const QByteArray& resource, qint64 atMs, const QString& how);
    void wrote(int client, const lockscope::DemoWrite& write);
    void overran(int client, const QByteArray& resource, qint64 validityMs, qint64 workMs);
    void note(const QString& text);

private:
    void setState(State state);
    void next();
    void begin(const DemoTask& task);
    void tryAcquire();
    void onAcquired(const RedlockOutcome& outcome);
    void onWorkDone();
    void onValidityOver();
    void enterPause(qint64 ms, bool writeAfter);
    void onPauseOver();
    void writeAndFinish();
    void finish();
    void endHold(qint64 atMs, const QString& how);
    void wait(qint64 ms, void (DemoClient::*then)());

    int m_index;
    QString m_name;
    Redlock* m_redlock;
    DemoFencingCounter* m_counter;
    DemoFencedStorage* m_storage;
    QList<DemoTask> m_background;
    QList<DemoTask> m_scripted;
    DemoTask m_task;
    RedlockLease m_lease;
    qint64 m_fencing = 0;
    qint64 m_triesUntilMs = 0;
    qint64 m_pendingPauseMs = 0;
    bool m_writeAfterPause = false;
    bool m_holding = false;
    bool m_announced = false;
    bool m_looping = false;
    bool m_stopped = false;
    State m_state = State::Idle;
    State m_stateBeforePause = State::Idle;
    void (DemoClient::*m_then)() = nullptr;
    QTimer m_timer;
    QTimer m_validity; // a careful client stops trusting its lock the moment validity ends
    bool m_overran = false;
};

} // namespace lockscope
