// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformat.h"

namespace lockscope {

QString lockFormatName(LockFormat format)
{
    switch (format) {
    case LockFormat::Unknown:
        return QStringLiteral("unknown");
    case LockFormat::PlainToken:
        return QStringLiteral("token");
    case LockFormat::Redsync:
        return QStringLiteral("redsync");
    case LockFormat::HexToken:
        return QStringLiteral("hex-token");
    case LockFormat::RedisPy:
        return QStringLiteral("redis-py");
    case LockFormat::UuidToken:
        return QStringLiteral("uuid-token");
    case LockFormat::PythonRedisLock:
        return QStringLiteral("python-redis-lock");
    case LockFormat::Redisson:
        return QStringLiteral("redisson");
    case LockFormat::RedissonReadWrite:
        return QStringLiteral("redisson-rw");
    case LockFormat::SemaphoreMutex:
        return QStringLiteral("redis-semaphore-mutex");
    case LockFormat::Semaphore:
        return QStringLiteral("redis-semaphore");
    case LockFormat::LegacyTimestamp:
        return QStringLiteral("legacy-timestamp");
    case LockFormat::LockScope:
        return QStringLiteral("lockscope");
    case LockFormat::Base64Token:
        return QStringLiteral("base64-token");
    }
    return QStringLiteral("unknown");
}

} // namespace lockscope
