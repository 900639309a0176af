/** The Lua of shared/agent/capped-store.ts (traces and run contexts), run by shared/redis/lua.ts. */
import { defineLuaScript } from '../redis/index.ts';

/**
 * Writes one value and indexes it in a sorted set by time, then trims the index to `max` members
 * and deletes the values it trimmed, in one script: a reader never sees an index entry without
 * its value, and a crash between the steps cannot leave values nothing will ever delete.
 * Index entries older than the TTL are dropped too (their values have expired by themselves).
 * KEYS: value key, index key. ARGV: value, ttl seconds, now ms, max count, value key prefix, member.
 * Returns how many older values were deleted.
 */
export const PUT_CAPPED = defineLuaScript<
  [valueKey: string, indexKey: string],
  [value: string, ttlSeconds: number, nowMs: number, maxCount: number, valuePrefix: string, member: string],
  number
>({
  name: 'put-capped',
  keys: 2,
  source: `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (tonumber(ARGV[3]) - tonumber(ARGV[2]) * 1000))
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
local evicted = 0
while excess > 0 do
  -- In slices: unpack() has a stack limit, and a lowered maximum may trim many at once.
  local n = math.min(excess, 500)
  local old = redis.call('ZRANGE', KEYS[2], 0, n - 1)
  for i = 1, #old do redis.call('DEL', ARGV[5] .. old[i]) end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, n - 1)
  excess = excess - n
  evicted = evicted + n
end
redis.call('EXPIRE', KEYS[2], ARGV[2])
return evicted
`,
  reply: (raw) => Number(raw),
});
