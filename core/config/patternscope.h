// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/compiledglob.h"
#include "config/scanpattern.h"
#include "formats/recognizedlock.h"

#include <vector>

namespace lockscope {

// Which of the keys a set of scan patterns brings in are locks (docs/manual/configuration.md, "Pattern
// modes"). A key under a "locks" pattern is a lock whatever its shape: unrecognised and without a
// TTL, it is stuck. A key met only under "discover" patterns is a lock only when its shape is one a
// lock library writes (discoverable); everything else there is not a lock, and is not shown, so
// that a broad pattern over a million ordinary keys shows the locks among them, not a million
// stuck ones.
class PatternScope
{
public:
    PatternScope() = default;
    explicit PatternScope(const QList<ScanPattern>& patterns);

    // Some pattern is a discover pattern: without one every key met is a lock, and nothing is checked.
    bool discovers() const { return m_discovers; }
    // A key under a "fencing" pattern: a counter, never a lock (isLock says no to it).
    bool isFencingCounter(const QByteArray& key) const;
    bool hasFencing() const { return !m_fenceGlobs.empty(); }
    // `lock`: the key as decoded on one master; `hasTtl`: it has an expiry there.
    bool isLock(const QByteArray& key, const RecognizedLock& lock, bool hasTtl) const;
    // A shape a lock library writes, telling enough by itself (a key under a discover pattern). Names
    // and structures no ordinary data has (LockScope's own tokens, Redisson's hashes, redis-semaphore's
    // mutex: and semaphore: keys, python-redis-lock's lock: keys, redis-py's uuid1) count with or
    // without a TTL; a bare random token (32 hex, UUID text, redsync's base64) only with one, as the
    // libraries that write them always set it; a bare number (the legacy SETNX timestamp), plain
    // text and other types never: name those keys with a "locks" pattern.
    static bool discoverable(const RecognizedLock& lock, bool hasTtl);

private:
    std::vector<CompiledGlob> m_lockGlobs; // asked for every key met: the common shapes compiled
    std::vector<CompiledGlob> m_fenceGlobs;
    bool m_discovers = false;
};

} // namespace lockscope
