// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisreply.h"
#include "connection/redisscript.h"

namespace lockscope {

// The Lua that makes token checks atomic on a master. Sent by EVALSHA; the connection falls back
// to EVAL when a master has not seen a script yet (or restarted and forgot it).
namespace RedlockScripts {

// KEYS[1] lock, ARGV[1] token -> 1 deleted, 0 absent, -1 held under another token.
const RedisScript& release();
// KEYS[1] lock, ARGV[1] token, ARGV[2] ttl ms -> 1 extended, 0 absent, -1 another token.
const RedisScript& extend();
// KEYS[1] lock, then either python-redis-lock's signal list or Redisson's fair-lock queue list
// and timeout zset (optional). ARGV: "expect" | "any", the expected token, "1" to delete keys of
// types no lock library uses, Redisson's lock channel, its read-write channel, now (wall ms);
// for a Redisson hash the plan's mode, holders left, n, n x (field, count), m, m lease keys;
// last, the publish command (PUBLISH, or SPUBLISH on a cluster).
// Built by ForceReleasePlanner::scriptKeys/scriptArgs.
// -> {action, token before, detail, commands sent}: action is deleted, holder-removed, spared,
//    absent or wrong-type.
const RedisScript& forceRelease();

// Whether a script's error reply is a WRONGTYPE, however the server words it (Redis 7 passes
// "WRONGTYPE …" through, Redis 6 wraps it in "ERR Error running script …: WRONGTYPE …").
bool isWrongType(const RedisReply& reply);

} // namespace RedlockScripts

} // namespace lockscope
