#include "discovery/keypool.h"

#include <QHashFunctions>

namespace lockscope {

QByteArray KeyPool::intern(const QByteArray& key, bool copy)
{
    // Another seed than QSet's own: the shard's keys would otherwise share their low hash bits.
    Shard& shard = m_shards[(qHash(key, size_t(0x9e3779b9)) >> 7) % m_shards.size()];
    const QMutexLocker lock(&shard.mutex);
    if (const auto it = shard.keys.constFind(key); it != shard.keys.constEnd())
        return *it;
    if (shard.keys.size() >= 2 * qMax<qsizetype>(shard.clearedSize, 64))
        purge(shard);
    return *shard.keys.insert(copy ? QByteArray(key.constData(), key.size()) : key);
}

qsizetype KeyPool::purge(Shard& shard)
{
    qsizetype dropped = 0;
    // isDetached(): nobody but the pool holds the bytes. Holders elsewhere only ever let go (a copy
    // is made under this mutex), so a name seen held may be dropped later, never one in use now.
    for (auto it = shard.keys.begin(); it != shard.keys.end();) {
        if (it->isDetached()) {
            it = shard.keys.erase(it);
            ++dropped;
        } else {
            ++it;
        }
    }
    shard.clearedSize = shard.keys.size();
    return dropped;
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
