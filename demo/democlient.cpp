// SPDX-License-Identifier: Apache-2.0
#include "demo/democlient.h"

#include "base/monotonicclock.h"
#include "demo/demofencingcounter.h"

#include <QPointer>
#include <QRandomGenerator>

namespace lockscope {

namespace {

constexpr qint64 nsPerMs = 1000000;
constexpr int retryGapMs = 150;

qint64 between(qint64 low, qint64 high)
{
    return low + qint64(QRandomGenerator::global()->bounded(quint32(qMax<qint64>(1, high - low))));
}

} // namespace

DemoClient::DemoClient(int index, QString name, Redlock* redlock, DemoFencingCounter* fencing,
                       DemoFencedStorage* storage, QObject* parent)
    : QObject(parent), m_index(index), m_name(std::move(name)), m_redlock(redlock), m_counter(fencing),
      m_storage(storage)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (auto then = std::exchange(m_then, nullptr))
            (this->*then)();
    });
    m_validity.setSingleShot(true);
    m_validity.setTimerType(Qt::PreciseTimer);
    connect(&m_validity, &QTimer::timeout, this, &DemoClient::onValidityOver);
}

void DemoClient::startLoop()
{
    m_stopped = false;
    m_looping = true;
    if (m_state == State::Idle && !m_timer.isActive())
        wait(between(100, 1500), &DemoClient::next);
}

void DemoClient::stopLoop()
{
    m_looping = false;
    if (m_state == State::Idle)
        m_timer.stop();
}

void DemoClient::run(const DemoTask& task)
{
    m_stopped = false;
    m_scripted << task;
    if (m_state == State::Idle) {
        m_timer.stop();
        next();
    }
}

void DemoClient::pauseFor(qint64 ms)
{
    if (m_stopped || ms <= 0)
        return;
    if (m_state == State::Working)
        enterPause(ms, true);
    else if (m_state == State::Idle)
        enterPause(ms, false);
    else if (m_state != State::Paused)
        m_pendingPauseMs = ms; // at the next point where a pause can fall
}

void DemoClient::stop()
{
    m_stopped = true;
    m_looping = false;
    m_scripted.clear();
    m_timer.stop();
    m_validity.stop();
    if (m_holding) {
        endHold(monotonicMs(), tr("stopped"));
        m_redlock->release(m_lease, [](const RedlockOutcome&) {});
    }
    setState(State::Idle);
}

void DemoClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(m_index, state);
}

void DemoClient::wait(qint64 ms, void (DemoClient::*then)())
{
    m_then = then;
    m_timer.start(int(qBound<qint64>(0, ms, Redlock::maxTtlMs)));
}

void DemoClient::next()
{
    if (m_stopped)
        return;
    if (m_pendingPauseMs > 0)
        return enterPause(std::exchange(m_pendingPauseMs, 0), false);
    if (!m_scripted.isEmpty())
        return begin(m_scripted.takeFirst());
    if (m_looping && !m_background.isEmpty()) {
        DemoTask task = m_background.at(int(QRandomGenerator::global()->bounded(int(m_background.size()))));
        task.workMs = between(task.workMs / 2, task.workMs * 3 / 2);
        task.release = QRandomGenerator::global()->bounded(4) != 0; // one in four is left to expire
        return begin(task);
    }
    setState(State::Idle);
}

void DemoClient::begin(const DemoTask& task)
{
    m_task = task;
    m_triesUntilMs = monotonicMs() + task.keepTryingMs;
    tryAcquire();
}

void DemoClient::tryAcquire()
{
    setState(State::Acquiring);
    m_redlock->acquire(m_task.resource, m_task.ttlMs, m_name,
                       [self = QPointer<DemoClient>(this)](const RedlockOutcome& outcome) {
                           if (self)
                               self->onAcquired(outcome);
                       });
}

void DemoClient::onAcquired(const RedlockOutcome& outcome)
{
    if (m_stopped) {
        if (outcome.ok())
            m_redlock->release(outcome.lease, [](const RedlockOutcome&) {});
        return;
    }
    if (!outcome.ok()) {
        emit acquireFailed(m_index, m_task.resource, outcome);
        if (monotonicMs() < m_triesUntilMs)
            return wait(retryGapMs, &DemoClient::tryAcquire);
        return finish();
    }
    m_lease = outcome.lease;
    m_holding = true;
    m_counter->next(m_task.counterKey, [self = QPointer<DemoClient>(this)](const Result<qint64>& fencing) {
        if (!self || self->m_stopped)
            return;
        if (!fencing) {
            emit self->note(tr("%1: %2; gives the lock back").arg(self->m_name, fencing.error().message));
            return self->finish();
        }
        self->m_fencing = *fencing;
        self->m_overran = false;
        self->m_validity.start(int(qMax<qint64>(0, self->m_lease.remainingMs(monotonicNs()))));
        self->setState(State::Working);
        self->m_announced = true;
        emit self->acquired(self->m_index, self->m_lease, self->m_fencing);
        self->wait(self->m_task.workMs, &DemoClient::onWorkDone);
        if (self->m_pendingPauseMs > 0)
            self->enterPause(std::exchange(self->m_pendingPauseMs, 0), true);
    });
}

void DemoClient::onValidityOver()
{
    if (m_state != State::Working || !m_holding)
        return;
    // The work is taking longer than the lock is certain to last: stop trusting it now, and drop
    // the write when the work is done.
    m_overran = true;
    emit overran(m_index, m_task.resource, m_lease.validityMs, m_task.workMs);
    endHold(m_lease.validUntilNs / nsPerMs, tr("validity ran out during the work: write dropped"));
}

void DemoClient::onWorkDone()
{
    if (!m_overran && !m_lease.isValidAt(monotonicNs()))
        onValidityOver();
    if (m_overran) {
        m_overran = false;
        // It knows its lease lapsed. Once the servers' TTL is over too there is nothing left to give
        // back: a release then can only meet the next holder's key, refused by the token check but
        // seen from outside (the lock tracer) as a holder still at work after the handover.
        if (monotonicNs() >= m_lease.startedAtNs + m_lease.ttlMs * nsPerMs) {
            emit note(tr("%1: past the %2 ms TTL, nothing left to release").arg(m_name).arg(m_lease.ttlMs));
            m_lease = RedlockLease();
        }
        return finish();
    }
    m_validity.stop();
    if (m_task.pauseBeforeWriteMs > 0)
        return enterPause(m_task.pauseBeforeWriteMs, true);
    writeAndFinish();
}

void DemoClient::enterPause(qint64 ms, bool writeAfter)
{
    m_timer.stop();
    m_validity.stop(); // the world stopped: nothing in this client notices time passing
    m_writeAfterPause = writeAfter && m_holding;
    setState(State::Paused);
    emit note(m_writeAfterPause ? tr("%1 stops the world for %2 ms, holding %3 with fencing number %4")
                                      .arg(m_name)
                                      .arg(ms)
                                      .arg(QString::fromUtf8(m_task.resource))
                                      .arg(m_fencing)
                                : tr("%1 stops the world for %2 ms").arg(m_name).arg(ms));
    wait(ms, &DemoClient::onPauseOver);
}

void DemoClient::onPauseOver()
{
    if (m_writeAfterPause) {
        m_writeAfterPause = false;
        setState(State::Working);
        // It has no idea time passed: it writes as if its lease were still good.
        return writeAndFinish();
    }
    setState(State::Idle);
    next();
}

void DemoClient::writeAndFinish()
{
    const DemoWrite w = m_storage->write(m_task.resource, m_name, m_fencing);
    emit wrote(m_index, w);
    finish();
}

void DemoClient::finish()
{
    m_validity.stop();
    auto afterTask = [this] {
        setState(State::Idle);
        if (m_stopped)
            return;
        if (m_pendingPauseMs > 0 || !m_scripted.isEmpty())
            return next();
        if (m_looping)
            wait(between(300, 1500), &DemoClient::next);
    };
    if (!m_holding && m_lease.token.isEmpty())
        return afterTask();
    if (m_holding && !m_task.release && m_lease.isValidAt(monotonicNs())) {
        setState(State::Expiring);
        m_then = nullptr;
        const qint64 leftMs = m_lease.remainingMs(monotonicNs());
        QTimer::singleShot(int(qMax<qint64>(0, leftMs)), this, [this, afterTask] {
            if (m_holding)
                endHold(m_lease.validUntilNs / nsPerMs, tr("left to expire"));
            m_lease = RedlockLease();
            if (m_state == State::Expiring)
                afterTask();
        });
        return;
    }
    if (m_holding)
        endHold(monotonicMs(), tr("released"));
    setState(State::Releasing);
    const RedlockLease lease = std::exchange(m_lease, RedlockLease());
    m_redlock->release(lease, [self = QPointer<DemoClient>(this), afterTask](const RedlockOutcome&) {
        if (self && self->m_state == State::Releasing)
            afterTask();
    });
}

void DemoClient::endHold(qint64 atMs, const QString& how)
{
    if (!m_holding)
        return;
    m_holding = false;
    // A lease given back before its fencing number came was never a hold anyone was told of.
    if (!std::exchange(m_announced, false))
        return;
    emit holdEnded(m_index, m_lease.resource, atMs, how);
}

} // namespace lockscope
