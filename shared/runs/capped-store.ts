import type { Redis } from 'ioredis';
import type { CappedCollectionKeys } from '../redis/index.ts';
import { PUT_CAPPED } from './capped-scripts.ts';

/** How many traces (and run contexts) are kept at most, whatever their TTL. @defaultValue 10000 */
export const DEFAULT_TRACE_MAX_COUNT = 10_000;

/** Options of a capped collection. */
export interface CappedOptions {
  ttlSeconds: number;
  /** Most values kept; the oldest are deleted first. @defaultValue DEFAULT_TRACE_MAX_COUNT */
  maxCount?: number;
  /** Clock for the index scores (tests). @defaultValue Date.now */
  now?: () => number;
}

/**
 * Stores `value` under `id`, keeping at most `maxCount` values (and none past the TTL), in one
 * script (`PUT_CAPPED`, capped-scripts.ts). Where the collection lives: shared/redis/keys.ts.
 * @returns how many older values were deleted to make room.
 * @throws the Redis error when the script fails (e.g. Redis down).
 */
export async function putCapped(redis: Redis, keys: CappedCollectionKeys, id: string, value: string, opts: CappedOptions): Promise<number> {
  const max = Math.max(1, opts.maxCount ?? DEFAULT_TRACE_MAX_COUNT);
  const now = (opts.now ?? Date.now)();
  return PUT_CAPPED.run(redis, [keys.valuePrefix + id, keys.indexKey], [value, opts.ttlSeconds, now, max, keys.valuePrefix, id]);
}
