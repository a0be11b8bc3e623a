// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QtGlobal>

namespace lockscope {

// What wrote a lock, as far as its shape tells (see shared/reference/lock-formats.md).
enum class LockFormat : quint8 // a byte: views and decoded locks are kept per lock
{
    Unknown,         // matched a pattern, shape not recognised: shown raw
    PlainToken,      // a string token of no known library's shape
    Redsync,         // base64 of 16 bytes, 24 chars ending "=="
    HexToken,        // 32 hex chars: node-redlock and others
    RedisPy,         // 32 hex chars of a uuid1: redis-py's Lock
    UuidToken,       // 36-char UUID text: pottery, redis-semaphore mutex
    PythonRedisLock, // lock:<name>, 24 chars of unpadded base64
    Redisson,        // hash, field <uuid>:<threadId> -> re-entry count
    RedissonReadWrite,
    SemaphoreMutex,  // redis-semaphore mutex:<key>
    Semaphore,       // redis-semaphore zset semaphore:<key>, one member per holder
    LegacyTimestamp, // SETNX/GETSET: the value is the expiry time, no Redis TTL
    LockScope,       // our own: "<owner>/<32 hex>"
    Base64Token,     // 22 chars of unpadded base64 that look random: @redis-kit/lock and others
};

// Stable, lower-case names used in JSON and the UI: "redsync", "redisson", ...
QString lockFormatName(LockFormat format);

} // namespace lockscope
