// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/lockformat.h"

#include <QByteArray>
#include <QList>
#include <QSharedDataPointer>
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
//
// A million string locks keep one each: what only some formats have (a hash's or a zset's holder
// list, a legacy lock's timestamps, a note on an odd value) sits behind one pointer that is null
// for the many. 64 bytes, where the same fields side by side took 120.
class RecognizedLock final
{
public:
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
    QString owner; // best human description of who holds it; may be empty

    // A hash's or a sorted set's holders, as read.
    const QList<LockHolder>& listedHolders() const { return rare().listedHolders; }
    void setListedHolders(QList<LockHolder> holders);
    // Wall-clock expiry written in the value (legacy timestamp locks); -1 when there is none.
    qint64 expiresAtMs() const { return rare().expiresAtMs; }
    void setExpiresAtMs(qint64 ms);
    // A legacy lock's time left before that expiry, as judged when it was recognised (the read's
    // time): the quorum view counts its validity down from it. -1 once the timestamp has passed.
    qint64 timestampLeftMs() const { return rare().timestampLeftMs; }
    void setTimestampLeftMs(qint64 ms);
    // Extra decoding, e.g. "uuid1 made 2026-11-22 02:31:46 UTC on node ...". A uuid1 token's is
    // read from the token when asked (redis-py's locks are many, and each has one).
    QString detail() const;
    void setDetail(const QString& detail);
    // Adds to the detail, after "; " when there is one already.
    void appendDetail(const QString& more);

    // Who holds it: the listed holders, or a string lock's one.
    QList<LockHolder> holderList() const;
    qsizetype holderCount() const { return impliedHolder ? 1 : listedHolders().size(); }
    // Whether any of the rare fields was set (a string lock's normally has none): for tests of memory.
    bool hasRareParts() const { return bool(m_rare); }

    bool operator==(const RecognizedLock& o) const;

private:
    struct Rare : QSharedData
    {
        QList<LockHolder> listedHolders;
        qint64 expiresAtMs = -1;
        qint64 timestampLeftMs = -1;
        QString detail;

        bool operator==(const Rare& o) const
        {
            return listedHolders == o.listedHolders && expiresAtMs == o.expiresAtMs &&
                   timestampLeftMs == o.timestampLeftMs && detail == o.detail;
        }
    };
    const Rare& rare() const;
    Rare& editRare();

    QSharedDataPointer<Rare> m_rare; // null: all of them at their defaults
};

static_assert(sizeof(void*) != 8 || sizeof(RecognizedLock) <= 64,
              "kept once per lock's content: keep the rare fields behind the pointer");

} // namespace lockscope
