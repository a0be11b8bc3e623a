// SPDX-License-Identifier: Apache-2.0
#include "locking/redlockscripts.h"

namespace lockscope {

const RedisScript& RedlockScripts::release()
{
    static const RedisScript script(R"lua(
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end
if v == false then return 0 end
return -1
)lua");
    return script;
}

const RedisScript& RedlockScripts::extend()
{
    static const RedisScript script(R"lua(
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if v == false then return 0 end
return -1
)lua");
    return script;
}

const RedisScript& RedlockScripts::forceRelease()
{
    // One script per master so that "is it still what the admin saw?" and the change are one
    // atomic step: a lock that changes hands in between is never deleted by mistake. Dispatches on
    // TYPE, because each library keeps its lock in a different shape. Returns the commands it sent,
    // which ForceReleasePlanner predicted for the preview: the same list, or none when it spares.
    static const RedisScript script(R"lua(
local key = KEYS[1]
local any = ARGV[1] == 'any'
local expected = ARGV[2]
local ops = {}
local publish = ARGV[#ARGV]
local function run(...)
  local r = redis.call(...)
  ops[#ops + 1] = {...}
  return r
end
local t = redis.call('TYPE', key).ok
if t == 'none' then return {'absent', '', '', ops} end
if t == 'string' then
  local v = redis.call('GET', key)
  if not any and v ~= expected then return {'spared', v, '', ops} end
  run('DEL', key)
  local detail = ''
  if KEYS[2] then
    -- python-redis-lock: waiters BLPOP this list; release pushes one element that lives 1 s.
    run('LPUSH', KEYS[2], '1')
    run('PEXPIRE', KEYS[2], '1000')
    detail = 'signalled ' .. KEYS[2]
  end
  return {'deleted', v, detail, ops}
end
if t == 'hash' then
  local mode = redis.call('HGET', key, 'mode')
  if mode == false then mode = '' end
  local holders = {}
  for _, f in ipairs(redis.call('HKEYS', key)) do
    if not (f == 'mode' and mode ~= '') then holders[#holders + 1] = f end
  end
  table.sort(holders)
  local before = table.concat(holders, ',')
  -- Redisson: waiters sleep until a message on the lock's channel (RedissonLock, RedissonFairLock,
  -- RedissonReadLock, RedissonWriteLock): a read-write lock's on redisson_rwlock:{name} (1 after a
  -- writer, 0 after readers), a fair lock's first waiter (deadline not passed) on
  -- redisson_lock__channel:{name}:<its id>, any other lock on redisson_lock__channel:{name}.
  local function wake()
    if mode == 'read' or mode == 'write' then
      local message = mode == 'write' and '1' or '0'
      run(publish, ARGV[5], message)
      return 'published ' .. message .. ' on ' .. ARGV[5]
    end
    if KEYS[3] then
      local queue = redis.pcall('LRANGE', KEYS[2], 0, -1)
      if type(queue) == 'table' and not queue.err then
        for _, waiter in ipairs(queue) do
          local deadline = redis.pcall('ZSCORE', KEYS[3], waiter)
          if type(deadline) ~= 'string' or tonumber(deadline) > tonumber(ARGV[6]) then
            run(publish, ARGV[4] .. ':' .. waiter, '0')
            return 'published 0 on ' .. ARGV[4] .. ':' .. waiter
          end
        end
      end
    end
    run(publish, ARGV[4], '0')
    return 'published 0 on ' .. ARGV[4]
  end
  if any then
    run('DEL', key)
    return {'deleted', before, wake(), ops}
  end
  -- Guarded: the holders the admin saw, with the counts seen, in the mode seen; and the key
  -- deleted only when the plan deletes it (a holder that joined since keeps it, untouched).
  if mode ~= ARGV[7] then return {'spared', before, 'the lock is now in mode ' .. mode, ops} end
  local n = tonumber(ARGV[9])
  if n == 0 then return {'spared', before, '', ops} end
  local writer = false
  for i = 1, n do
    local f, count = ARGV[8 + 2 * i], ARGV[9 + 2 * i]
    local now = redis.call('HGET', key, f)
    if now == false then return {'spared', before, 'holder ' .. f .. ' has left', ops} end
    if tonumber(now) ~= tonumber(count) then
      return {'spared', before, 'holder ' .. f .. ' now holds it ' .. now .. ' times, not ' .. count, ops}
    end
    if mode == 'write' and string.sub(f, -6) == ':write' then writer = true end
  end
  local left = #holders - n
  if (left == 0) ~= (tonumber(ARGV[8]) <= 0) then
    if left == 0 then return {'spared', before, 'the other holders have left', ops} end
    return {'spared', before, left .. ' holder(s) joined since', ops}
  end
  for i = 1, n do run('HDEL', key, ARGV[8 + 2 * i]) end
  local leases = 10 + 2 * n
  for i = 1, tonumber(ARGV[leases]) do run('DEL', ARGV[leases + i]) end
  if left == 0 then
    run('DEL', key)
    return {'deleted', before, wake(), ops}
  end
  if writer then run('HSET', key, 'mode', 'read') end
  return {'holder-removed', before, n .. ' of ' .. #holders .. ' holders removed', ops}
end
if t == 'zset' then
  local members = redis.call('ZRANGE', key, 0, -1)
  local before = table.concat(members, ',')
  if any then
    run('DEL', key)
    return {'deleted', before, #members .. ' holders', ops}
  end
  -- redis-semaphore: one member per holder (multi-permit holders as <id>_<n>): remove the holder,
  -- never the whole semaphore.
  local prefix = expected .. '_'
  local removed = 0
  for _, m in ipairs(members) do
    if m == expected or (string.sub(m, 1, #prefix) == prefix and string.match(string.sub(m, #prefix + 1), '^%d+$')) then
      removed = removed + run('ZREM', key, m)
    end
  end
  if removed == 0 then return {'spared', before, '', ops} end
  return {'holder-removed', expected, removed .. ' of ' .. #members .. ' members removed', ops}
end
if ARGV[3] == '1' and any then
  run('DEL', key)
  return {'deleted', '', 'a ' .. t .. ' key', ops}
end
return {'wrong-type', '', t, ops}
)lua");
    return script;
}

bool RedlockScripts::isWrongType(const RedisReply& reply)
{
    if (!reply.isError())
        return false;
    if (reply.errorCode() == "WRONGTYPE")
        return true;
    // Redis 6 wraps an error raised inside a script: "ERR Error running script (call to f_…):
    // @user_script:2: WRONGTYPE Operation against a key holding the wrong kind of value".
    return reply.string.startsWith("ERR") && reply.string.contains(": WRONGTYPE ");
}

} // namespace lockscope
