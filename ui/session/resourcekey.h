// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHashFunctions>

namespace lockscope {

// A resource name that carries its hash. A table of 100k resources doubles in one go; with plain
// byte-array keys every entry's name is read again to rehash it (a cache miss each), which froze
// the window for over 10 ms per table. With the hash kept in the entry, growing only moves entries.
struct ResourceKey
{
    explicit ResourceKey(const QByteArray& name) : resource(name), hash(qHash(name)) {}

    QByteArray resource;
    size_t hash;

    bool operator==(const ResourceKey& other) const
    {
        return hash == other.hash && resource == other.resource;
    }
};

inline size_t qHash(const ResourceKey& key, size_t seed = 0) noexcept
{
    return key.hash ^ seed;
}

} // namespace lockscope
