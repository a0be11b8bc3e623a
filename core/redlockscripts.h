#pragma once

#include "redisscript.h"

namespace lockscope {

// The Lua that makes token checks atomic on a master. Sent by EVALSHA; the connection falls back
// to EVAL when a master has not seen a script yet (or restarted and forgot it).
class RedlockScripts
{
public:
    // KEYS[1] lock, ARGV[1] token -> 1 deleted, 0 absent, -1 held under another token.
    static const RedisScript& release();
    // KEYS[1] lock, ARGV[1] token, ARGV[2] ttl ms -> 1 extended, 0 absent, -1 another token.
    static const RedisScript& extend();
    // KEYS[1] lock, KEYS[2] python-redis-lock signal list (optional);
    // ARGV[1] "expect" | "any", ARGV[2] expected token, ARGV[3] Redisson channel ("" for none),
    // ARGV[4] "1" to delete keys of types no lock library uses.
    // -> {action, token before, detail}: action is deleted, holder-removed, spared, absent or wrong-type.
    static const RedisScript& forceRelease();
};

} // namespace lockscope
