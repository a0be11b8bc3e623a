// SPDX-License-Identifier: Apache-2.0
#include "discovery/keypool.h"

namespace lockscope {

QByteArray KeyPool::intern(const QByteArray& key, quint32 hash, bool copy)
{
    Shard& shard = m_shards[(hash >> 28) % m_shards.size()];
    const QMutexLocker lock(&shard.mutex);
    if (shard.keys.size() >= 2 * qMax<qsizetype>(shard.clearedSize, 64))
        purge(shard);
    return shard.keys.insert(key, hash, copy).key;
}

qsizetype KeyPool::purge(Shard& shard)
{
    const qsizetype before = shard.keys.size();
    // isDetached(): nobody but the pool holds the bytes. Holders elsewhere only ever let go (a copy
    // is made under this mutex), so a name seen held may be dropped later, never one in use now.
    shard.keys.sweep([](const QByteArray& key, ScanKeyTable::Mark&) { return !key.isDetached(); });
    shard.clearedSize = shard.keys.size();
    return before - shard.clearedSize;
}

qsizetype KeyPool::purge()
{
    qsizetype dropped = 0;
    for (Shard& shard : m_shards) {
        const QMutexLocker lock(&shard.mutex);
        dropped += purge(shard);
    }
    return dropped;
}

qsizetype KeyPool::size() const
{
    qsizetype n = 0;
    for (const Shard& shard : m_shards) {
        const QMutexLocker lock(&shard.mutex);
        n += shard.keys.size();
    }
    return n;
}

} // namespace lockscope
