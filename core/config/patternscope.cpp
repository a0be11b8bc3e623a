// SPDX-License-Identifier: Apache-2.0
#include "config/patternscope.h"

namespace lockscope {

PatternScope::PatternScope(const QList<ScanPattern>& patterns)
{
    for (const ScanPattern& p : patterns) {
        if (p.mode == PatternMode::Discover)
            m_discovers = true;
        else if (p.mode == PatternMode::Fencing)
            m_fenceGlobs.emplace_back(p.match);
        else
            m_lockGlobs.emplace_back(p.match);
    }
}

bool PatternScope::isFencingCounter(const QByteArray& key) const
{
    for (const CompiledGlob& glob : m_fenceGlobs)
        if (glob.matches(key))
            return true;
    return false;
}

bool PatternScope::isLock(const QByteArray& key, const RecognizedLock& lock, bool hasTtl) const
{
    if (hasFencing() && isFencingCounter(key))
        return false; // a counter, whichever other pattern meets it too
    if (!m_discovers)
        return true;
    for (const CompiledGlob& glob : m_lockGlobs)
        if (glob.matches(key))
            return true;
    return discoverable(lock, hasTtl);
}

bool PatternScope::discoverable(const RecognizedLock& lock, bool hasTtl)
{
    if (lock.auxiliary)
        return false;
    switch (lock.format) {
    case LockFormat::LockScope:
    case LockFormat::Redisson:
    case LockFormat::RedissonReadWrite:
    case LockFormat::SemaphoreMutex:
    case LockFormat::Semaphore:
    case LockFormat::PythonRedisLock:
    case LockFormat::RedisPy:
        return true;
    case LockFormat::HexToken:
    case LockFormat::UuidToken:
    case LockFormat::Redsync:
    case LockFormat::Base64Token:
        return hasTtl;
    case LockFormat::Unknown:
    case LockFormat::PlainToken:
    case LockFormat::LegacyTimestamp:
        return false;
    }
    return false;
}

} // namespace lockscope
