/** The Lua of capped-store.ts (traces and run contexts): put-capped.lua, run by shared/redis/lua.ts. */
import { defineLuaScript, luaSource } from '../redis/index.ts';

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
  source: luaSource(new URL('./put-capped.lua', import.meta.url)),
  reply: (raw) => Number(raw),
});
