// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/redisserver.h"

namespace lockscope::test {

// Keys for patterns that overlap ("lock:*", "*lock*", "mutex:*"): 2,000 lock:N, 500 mutex:N and 500
// jobs.lock.N locks (3,000 in all, lock:N matched by two of the patterns) among 2,000 other:N keys
// no pattern matches; 5,000 keys. True when the server took them.
bool writeOverlappingPatternKeys(RedisServer& server);

} // namespace lockscope::test
