#include "redlockscripts.h"

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
    // One script per master so that "is it still the token the admin saw?" and the deletion are
    // one atomic step: a lock that changes hands in between is never deleted by mistake.
    // Dispatches on TYPE, because each library keeps its lock in a different shape.
    static const RedisScript script(R"lua(
local key = KEYS[1]
local any = ARGV[1] == 'any'
local expected = ARGV[2]
local t = redis.call('TYPE', key).ok
if t == 'none' then return {'absent', '', ''} end
if t == 'string' then
  local v = redis.call('GET', key)
  if not any and v ~= expected then return {'spared', v, ''} end
  redis.call('DEL', key)
  local detail = ''
  if KEYS[2] then
    -- python-redis-lock: waiters BLPOP this list; release pushes one element that lives 1 s.
    redis.call('LPUSH', KEYS[2], 1)
    redis.call('PEXPIRE', KEYS[2], 1000)
    detail = 'signalled ' .. KEYS[2]
  end
  return {'deleted', v, detail}
end
if t == 'hash' then
  local fields = redis.call('HKEYS', key)
  local holders = {}
  for _, f in ipairs(fields) do
    if f ~= 'mode' then holders[#holders + 1] = f end
  end
  local before = table.concat(holders, ',')
  if not any and redis.call('HEXISTS', key, expected) == 0 then return {'spared', before, ''} end
  redis.call('DEL', key)
  local detail = ''
  if ARGV[3] ~= '' then
    -- Redisson: its waiters sleep until an unlock message (0) arrives on the lock's channel.
    redis.call('PUBLISH', ARGV[3], '0')
    detail = 'published 0 on ' .. ARGV[3]
  end
  return {'deleted', before, detail}
end
if t == 'zset' then
  local members = redis.call('ZRANGE', key, 0, -1)
  local before = table.concat(members, ',')
  if any then
    redis.call('DEL', key)
    return {'deleted', before, #members .. ' holders'}
  end
  -- redis-semaphore: one member per holder (multi-permit holders as <id>_<n>): remove the holder,
  -- never the whole semaphore.
  local prefix = expected .. '_'
  local removed = 0
  for _, m in ipairs(members) do
    if m == expected or (string.sub(m, 1, #prefix) == prefix and string.match(string.sub(m, #prefix + 1), '^%d+$')) then
      removed = removed + redis.call('ZREM', key, m)
    end
  end
  if removed == 0 then return {'spared', before, ''} end
  return {'holder-removed', expected, removed .. ' of ' .. #members .. ' members removed'}
end
if ARGV[4] == '1' and any then
  redis.call('DEL', key)
  return {'deleted', '', 'a ' .. t .. ' key'}
end
return {'wrong-type', '', t}
)lua");
    return script;
}

} // namespace lockscope
