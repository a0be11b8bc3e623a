#pragma once

#include "formats/lockformat.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace lockscope {

// One holder of a lock: the single owner of a mutex, each field of a Redisson hash, each
// member of a semaphore.
struct LockHolder
{
    QByteArray id;       // token, hash field or zset member
    QString owner;       // decoded, human-readable ("host 02:42:ac:11:00:02", "thread 57"); may be empty
    qint64 count = 1;    // re-entry count (Redisson) or permits
    qint64 sinceMs = -1; // wall-clock ms the holder registered (semaphore score), -1 when unknown

    bool operator==(const LockHolder&) const = default;
};

// What a key means as a lock, decoded from its shape on one master.
struct RecognizedLock
{
    LockFormat format = LockFormat::Unknown;
    // The flags sit next to the format: a lock keeps one RecognizedLock per master, and padding adds up.
    bool expiredByTimestamp = false;
    bool auxiliary = false; // a helper key (lock-signal:, redisson_lock_queue:): not a lock itself
    // A string lock: its one holder is the token and owner, made when asked (holderList()). A
    // list of one kept per lock was 96 bytes for each of a million locks.
    bool impliedHolder = false;
    // Compared across masters to decide the quorum: the same lock acquisition gives the same
    // token everywhere (for multi-holder formats, the sorted holder ids).
    QByteArray token;
    QString owner;                   // best human description of who holds it; may be empty
    QList<LockHolder> listedHolders; // a hash's or a sorted set's holders, as read
    qint64 expiresAtMs = -1;         // wall-clock expiry written in the value (legacy timestamp locks)
    // A legacy lock's time left before that expiry, as judged when it was recognised (the read's
    // time): the quorum view counts its validity down from it. -1 once the timestamp has passed.
    qint64 timestampLeftMs = -1;
    QString detail; // extra decoding, e.g. "uuid1 made 2026-11-22 02:31:46 UTC"

    // Who holds it: the listed holders, or a string lock's one.
    QList<LockHolder> holderList() const;
    qsizetype holderCount() const { return impliedHolder ? 1 : listedHolders.size(); }

    bool operator==(const RecognizedLock&) const = default;
};

} // namespace lockscope
