// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/recognizedlock.h"

#include <QByteArray>
#include <QByteArrayList>

#include <optional>

// Helper keys the libraries keep next to their locks (wait queues, wake-up lists, unlock channels,
// token counters), known by name alone. Pure.
namespace lockscope::recognition {

// A lock marked `auxiliary`, with the library's format and what the key is for; nothing for a key
// that is no known helper.
std::optional<RecognizedLock> recognizeAuxiliary(const QByteArray& key);
// The helper keys a lock named `lockKey` may have, whatever its library: Redisson's unlock channel,
// fair-lock queue and timeouts and fenced-lock counter ({name} hash-tagged, so on the lock's own
// cluster slot), python-redis-lock's wake-up list (for "lock:<name>"). The tracer watches them all.
QByteArrayList auxiliaryKeysOf(const QByteArray& lockKey);
// The lock a Redisson fenced-lock token counter ("redisson_lock_token:{name}") belongs to; nothing
// for any other key.
std::optional<QByteArray> fencedLockOf(const QByteArray& key);

} // namespace lockscope::recognition
