// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "discovery/scankeytable.h"

#include <QByteArray>
#include <QMutex>

#include <array>

namespace lockscope {

// Key names shared by the scan workers of masters that hold the same keys: Redlock's independent
// masters each hold every lock, and each worker's key table kept a copy of its name of its own (at
// 100k locks on five masters, 23 MB for four copies nobody needed). A table keeps the pool's copy
// instead, so a name's bytes are held once whichever masters hold it.
//
// Thread-safe: the workers run on scan threads of their own. A name stays in the pool while anyone
// holds it; one that only the pool holds is dropped when its part of the pool has doubled since it
// was last cleared (so names that come and go cost at most as many again), or by purge().
class KeyPool final
{
public:
    KeyPool() = default;
    Q_DISABLE_COPY_MOVE(KeyPool)

    // The pool's copy of `key`, added if it was not there: from `key` itself (it shares its bytes),
    // or, with `copy` (a key that points into a buffer that goes away), from a copy of its bytes.
    // `hash` is HashedKey::hashOf(key), which a table has at hand: a key is hashed once.
    QByteArray intern(const QByteArray& key, quint32 hash, bool copy = false);
    QByteArray intern(const QByteArray& key, bool copy = false)
    {
        return intern(key, HashedKey::hashOf(key), copy);
    }
    // Drops the names only the pool holds; how many.
    qsizetype purge();
    qsizetype size() const;

private:
    struct Shard
    {
        mutable QMutex mutex;
        ScanKeyTable keys;         // its marks unused
        qsizetype clearedSize = 0; // its size after it was last cleared
    };
    static qsizetype purge(Shard& shard); // with its mutex held

    // A scan thread per master takes its part by the key's hash (its high bits: the table's slots
    // go by the low ones), so that five workers rarely wait for each other.
    std::array<Shard, 16> m_shards;
};

} // namespace lockscope
