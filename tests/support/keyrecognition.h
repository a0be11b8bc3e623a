// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

namespace lockscope::test {

class RedisServer;

// A key read the way a monitor reads it, command by command through the fixture (TYPE, then GET or
// HGETALL or ZRANGE ..., and PTTL).
KeyObservation observeKey(const RedisServer& server, const QByteArray& key);
// What the recogniser makes of it now, without owner rules; `seen` gets the observation.
RecognizedLock recognizeKey(const RedisServer& server, const QByteArray& key, KeyObservation* seen = nullptr);

} // namespace lockscope::test
