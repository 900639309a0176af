import type { Redis } from 'ioredis';

/** How many traces (and run contexts) are kept at most, whatever their TTL. @defaultValue 10000 */
export const DEFAULT_TRACE_MAX_COUNT = 10_000;

/**
 * Writes one value and indexes it in a sorted set by time, then trims the index to `max` members
 * and deletes the values it trimmed, in one script: a reader never sees an index entry without
 * its value, and a crash between the steps cannot leave values nothing will ever delete.
 * Index entries older than the TTL are dropped too (their values have expired by themselves).
 * KEYS: value key, index key. ARGV: value, ttl seconds, now ms, max count, value key prefix, member.
 */
const PUT_CAPPED = `
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
`;

/** Where a capped collection lives: values under `valuePrefix + id`, the index at `indexKey`. */
export interface CappedKeys {
  valuePrefix: string;
  indexKey: string;
}

/** Options of a capped collection. */
export interface CappedOptions {
  ttlSeconds: number;
  /** Most values kept; the oldest are deleted first. @defaultValue DEFAULT_TRACE_MAX_COUNT */
  maxCount?: number;
  /** Clock for the index scores (tests). @defaultValue Date.now */
  now?: () => number;
}

/**
 * Stores `value` under `id`, keeping at most `maxCount` values (and none past the TTL).
 * @returns how many older values were deleted to make room.
 * @throws the Redis error when the script fails (e.g. Redis down).
 */
export async function putCapped(redis: Redis, keys: CappedKeys, id: string, value: string, opts: CappedOptions): Promise<number> {
  const max = Math.max(1, opts.maxCount ?? DEFAULT_TRACE_MAX_COUNT);
  const now = (opts.now ?? Date.now)();
  const evicted = await redis.eval(PUT_CAPPED, 2, keys.valuePrefix + id, keys.indexKey, value, opts.ttlSeconds, now, max, keys.valuePrefix, id);
  return Number(evicted);
}
