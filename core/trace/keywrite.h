// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayList>

namespace lockscope {

// What one command does to the lock's key, read from its arguments (a client's command or a
// script's call): the model of the key (LockKeyModel) applies it. Commands that only read, or that
// a lock library never sends to a lock, are None.
struct KeyWrite
{
    enum class Kind
    {
        None,
        Set,          // SET, SETEX, PSETEX, GETSET: the value, whatever was there
        SetIfAbsent,  // SET NX, SETNX
        SetIfPresent, // SET XX
        Delete,       // DEL, UNLINK, GETDEL, and an expiry already in the past
        Expire,       // EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, GETEX with a time
        Persist,      // PERSIST, GETEX PERSIST
        HashEnter,    // HSET, HSETNX, HINCRBY by more than 0: a re-entrant lock's holder field
        HashLeave,    // HINCRBY by 0 or less, HDEL: a re-entry given back
    };

    Kind kind = Kind::None;
    QByteArray value;        // the value set, or the hash field
    qint64 expiresAtUs = -1; // Set and Expire: the lease's end on the master's clock; -1: none
    bool keepTtl = false;    // SET ... KEEPTTL

    // `args` is a command whose key (args[1]) is the lock's; `us` the master's time it ran at.
    static KeyWrite of(const QByteArrayList& args, qint64 us);
};

} // namespace lockscope
