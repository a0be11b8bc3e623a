// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace lockscope {

enum class ForceReleaseMode
{
    ExpectToken, // delete only where the token is still the one the admin saw
    AnyToken,    // delete whatever is there
};

// What an administrator asked for.
struct ForceReleaseRequest
{
    QByteArray resource;
    ForceReleaseMode mode = ForceReleaseMode::ExpectToken;
    QByteArray expectedToken;  // a string lock's value, a Redisson field, a semaphore member id
    QList<int> masters;        // indexes into the master set; empty: all of them
    bool forceUnknown = false; // act even on keys not recognised as locks
};

// What execute() will do on one master, decided once from what inspect() read there. The dialog
// and lockctl show it, and execute() hands exactly this to the master's script, which re-checks
// the state it was decided on and then sends these commands, or sends nothing and spares the lock.
struct ForceReleaseStep
{
    enum class Kind
    {
        Nothing,       // absent or unreachable: nothing to do
        Delete,        // the key goes (and waiters are woken)
        RemoveHolders, // some holders leave a multi-holder lock; the key stays for the others
        Spare,         // the holder (token) the admin saw is not there: nothing is sent
        Refuse,        // no lock (or a lock type we cannot act on without --any-token)
    };
    // One Redis command, as its arguments (the server's bytes, not escaped).
    using Command = QByteArrayList;

    Kind kind = Kind::Nothing;
    QString why;             // Nothing, Spare, Refuse: in words
    QList<Command> commands; // what the script sends on this master, in this order
    // What the script checks first, in words: "if it still holds the token shown", "whatever it
    // holds". The commands are never sent as they are: one script per master checks, then sends.
    QString condition;
    // Where the master has its own compare-and-delete (DELIFEQ, DELEX ... IFEQ) and the step is one
    // guarded DEL of a string: that command, sent instead of the script. Empty: the script.
    // execute() decides again from the connection as it is then; the outcome says what was sent.
    QByteArrayList sentAs;

    // Redisson hashes: what the script re-checks before it acts.
    QByteArray mode;                                 // "", "read" or "write" as seen
    QList<QPair<QByteArray, qint64>> removedHolders; // fields to HDEL with the counts seen
    qint64 holdersLeft = 0;                          // holders that stay (0: the key is deleted)
    QByteArrayList leaseKeys;                        // removed readers' {name}:<field>:rwlock_timeout:<n>
    QByteArrayList waitKeys;                         // fair lock: its queue list and timeout zset

    // One line for people: "remove holder …; the key stays for 1 other holder". Bytes escaped.
    QString summary() const;
};

// One chosen master as read just before the deletion, and what it holds.
struct ForceReleaseTarget
{
    int index = 0;
    QString master; // URL without password
    KeyObservation observation;
    RecognizedLock lock;
    QString notALock;      // why this key is no lock, empty when it is one (or absent)
    QByteArray fairWaiter; // Redisson fair lock: the first waiter whose deadline has not passed
    int fairWaiters = 0;   // Redisson fair lock: waiters in redisson_lock_queue:{name}
    bool sharded = false;  // a Redis Cluster entry: Redisson publishes with SPUBLISH there
    ForceReleaseStep step; // what execute() does here
};

// What a force-release would touch: shown to the admin for confirmation, then executed.
struct ForceReleasePlan
{
    ForceReleaseRequest request;
    QList<ForceReleaseTarget> targets; // chosen masters, in master order
    QString refusal;                   // first reason the key is not a lock; empty when it is one
    QByteArray tokenSeen;              // the token (or holder ids) on the first master that has the key
    QByteArray signalKey;              // python-redis-lock's lock-signal:<name>, when that is the format
    QByteArray redissonChannel;        // redisson_lock__channel:{name} or redisson_rwlock:{name}

    // Some master holds a value of no lock library's shape (plain text): a key LockScope lists
    // only because a "locks" pattern matches its name, which may be no lock at all.
    bool unrecognisedFormat() const
    {
        for (const ForceReleaseTarget& t : targets)
            if (t.observation.present &&
                (t.lock.format == LockFormat::PlainToken || t.lock.format == LockFormat::Unknown))
                return true;
        return false;
    }

    bool anyPresent() const
    {
        for (const ForceReleaseTarget& t : targets)
            if (t.observation.present)
                return true;
        return false;
    }
};

} // namespace lockscope
