// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

namespace lockscope {

// A thread in a Redisson fair lock's queue (redisson_lock_queue:{name}) with the deadline from
// redisson_lock_timeout:{name} at which it gives up.
struct QueuedWaiter
{
    QByteArray id;          // "<uuid>:<threadId>"
    qint64 deadlineMs = -1; // wall clock, ms since the epoch; -1: not in the timeout set

    bool operator==(const QueuedWaiter&) const = default;
};

// Who waits for a Redisson lock, read from one master.
struct LockWaiters
{
    bool known = false;        // read (only Redisson locks are asked)
    int master = -1;           // where it was read
    QByteArray channel;        // redisson_lock__channel:{name} (redisson_rwlock:{name} for a read-write lock)
    qint64 subscribers = 0;    // PUBSUB NUMSUB (plus SHARDNUMSUB on a cluster): about one per waiting client
    QList<QueuedWaiter> queue; // the fair lock's queue, in order

    // Clients waiting: a fair lock's queued threads wait too, subscribed or not yet.
    qint64 count() const { return subscribers > queue.size() ? subscribers : qint64(queue.size()); }
    bool operator==(const LockWaiters&) const = default;
};

// A connected client (CLIENT LIST) matched to the lock's owner.
struct OwnerClient
{
    int master = -1;
    QByteArray holder;    // the holder id it was matched to (token, Redisson field)
    QByteArray matchedBy; // "name" or "address"
    qint64 clientId = -1;
    QByteArray name;
    QByteArray address;
    qint64 ageS = -1;  // connected this long
    qint64 idleS = -1; // since its last command

    bool operator==(const OwnerClient&) const = default;
};

// What a DiagnosisReader read from the masters for one lock, beyond the lock's own keys.
struct DiagnosisFacts
{
    LockWaiters waiters;
    bool clientsRead = false;  // CLIENT LIST answered on at least one master holding the lock
    QList<OwnerClient> owners; // the owner's connections found, if any

    bool operator==(const DiagnosisFacts&) const = default;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::DiagnosisFacts)
