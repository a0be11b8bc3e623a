// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

// Redisson's hashes: a lock (RLock, fair lock) holds one field "<instance uuid>:<thread id>" per
// holder with its re-entry count; a read-write lock adds "mode" (read or write) and marks its writer
// "<uuid>:<thread id>:write". Pure.
namespace lockscope::recognition {

// Any hash: Redisson or RedissonReadWrite, else Unknown ("hash of unknown shape", "empty hash").
RecognizedLock recognizeRedissonHash(const KeyObservation& o);

} // namespace lockscope::recognition
