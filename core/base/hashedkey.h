// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace lockscope {

// A key name with its hash, computed once where the name is first met (a scan worker, which hashes
// every key it keeps anyway) and carried with it. A table keyed by it neither hashes the name
// again nor reads its bytes to grow, and a lookup compares the bytes only when the hashes match,
// and not even then when both sides share them (names that came through the key pool do). A
// monitor's table of 100k locks on five masters waited on those reads, a cache miss each: the
// bytes were written by a scan thread on the other core.
class HashedKey final
{
public:
    HashedKey() : m_hash(hashOf(QByteArrayView())) {}
    // Implicit: a name met without its hash (a user's input, an event) is hashed here.
    HashedKey(const QByteArray& key) : m_bytes(key), m_hash(hashOf(key)) {}
    HashedKey(const char* key) : HashedKey(QByteArray(key)) {}
    // `hash` must be hashOf(key).
    HashedKey(const QByteArray& key, quint32 hash) : m_bytes(key), m_hash(hash) {}

    // The process's one hash of key names (seeded per process: names come from servers).
    static quint32 hashOf(QByteArrayView key);

    const QByteArray& bytes() const { return m_bytes; }
    operator const QByteArray&() const { return m_bytes; }
    quint32 hash() const { return m_hash; }

    friend bool operator==(const HashedKey& a, const HashedKey& b)
    {
        return a.m_hash == b.m_hash && a.m_bytes.size() == b.m_bytes.size() &&
               (a.m_bytes.constData() == b.m_bytes.constData() || a.m_bytes == b.m_bytes);
    }
    // For QHash: the hash is seeded already, with the seed QHash uses by default.
    friend size_t qHash(const HashedKey& key, size_t = 0) noexcept { return key.m_hash; }

private:
    QByteArray m_bytes;
    quint32 m_hash;
};

} // namespace lockscope
