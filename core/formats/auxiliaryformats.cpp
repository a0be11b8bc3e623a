// SPDX-License-Identifier: Apache-2.0
#include "formats/auxiliaryformats.h"

namespace lockscope::recognition {

std::optional<RecognizedLock> recognizeAuxiliary(const QByteArray& key)
{
    struct Helper
    {
        const char* prefix;
        LockFormat format;
        const char* detail;
    };
    static const Helper helpers[] = {
        {"lock-signal:", LockFormat::PythonRedisLock, "python-redis-lock wake-up list for waiters"},
        {"redisson_lock_queue:", LockFormat::Redisson, "Redisson fair-lock wait queue"},
        {"redisson_lock_timeout:", LockFormat::Redisson, "Redisson fair-lock waiter timeouts"},
        {"redisson_lock__channel", LockFormat::Redisson, "Redisson unlock channel"},
        {"redisson_lock_token:", LockFormat::Redisson, "Redisson fenced-lock token counter"},
    };
    RecognizedLock lock;
    lock.auxiliary = true;
    for (const Helper& h : helpers) {
        if (key.startsWith(h.prefix)) {
            lock.format = h.format;
            lock.setDetail(QString::fromLatin1(h.detail));
            return lock;
        }
    }
    // A Redisson read lock's per-reader lease: "{name}:<uuid>:<thread>:rwlock_timeout:<n>".
    if (key.startsWith('{') && key.contains(":rwlock_timeout")) {
        lock.format = LockFormat::Redisson;
        lock.setDetail(QStringLiteral("Redisson read-lock lease of one reader"));
        return lock;
    }
    return std::nullopt;
}

QByteArrayList auxiliaryKeysOf(const QByteArray& lockKey)
{
    const QByteArray tagged = '{' + lockKey + '}';
    QByteArrayList out{"redisson_lock__channel:" + tagged, "redisson_lock_queue:" + tagged,
                       "redisson_lock_timeout:" + tagged, "redisson_lock_token:" + tagged};
    if (lockKey.startsWith("lock:"))
        out << "lock-signal:" + lockKey.mid(5);
    return out;
}

std::optional<QByteArray> fencedLockOf(const QByteArray& key)
{
    static const QByteArray prefix = QByteArrayLiteral("redisson_lock_token:");
    if (!key.startsWith(prefix) || key.size() == prefix.size())
        return std::nullopt;
    // Redisson tags the name for its cluster slot ({name}) unless it already holds a tag.
    const QByteArray name = key.mid(prefix.size());
    if (name.startsWith('{') && name.endsWith('}') && name.indexOf('{', 1) < 0)
        return name.mid(1, name.size() - 2);
    return name;
}

} // namespace lockscope::recognition
