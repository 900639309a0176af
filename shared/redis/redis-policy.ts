import type { Redis } from 'ioredis';
import { PermanentError } from '../errors.ts';

/** The only eviction policy under which Redis never drops a queued job or a status record. */
export const REQUIRED_POLICY = 'noeviction';

/** `maxmemory_policy` from the text of `INFO memory`; null when the field is absent. */
export function policyFromInfo(info: string): string | null {
  const m = /^maxmemory_policy:(\S+)\s*$/m.exec(info);
  return m ? m[1]! : null;
}

/**
 * Redis's `maxmemory-policy`: CONFIG GET, or, where CONFIG is disabled or renamed (as on some
 * managed Redis), the `maxmemory_policy` line of INFO memory. Null when neither tells.
 */
export async function readEvictionPolicy(redis: Pick<Redis, 'config' | 'info'>): Promise<string | null> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as unknown;
    if (Array.isArray(reply) && typeof reply[1] === 'string') return reply[1];
  } catch {
    // CONFIG refused: INFO is allowed on every managed Redis we know of.
  }
  return policyFromInfo(await redis.info('memory'));
}

/**
 * Refuses to run on a Redis that may evict keys: eviction silently loses jobs, locks and status
 * records, and nothing afterwards can tell that they existed.
 * @returns the policy read (null when Redis would not say; the caller warns).
 * @throws PermanentError REDIS_EVICTION_POLICY when the policy is anything but `noeviction`.
 */
export async function assertNoEviction(redis: Pick<Redis, 'config' | 'info'>): Promise<string | null> {
  const policy = await readEvictionPolicy(redis);
  if (policy !== null && policy !== REQUIRED_POLICY) {
    throw new PermanentError(
      'REDIS_EVICTION_POLICY',
      `Redis maxmemory-policy is ${policy}: Quarry needs ${REQUIRED_POLICY} (an evicting Redis silently loses queued jobs and status records). ` +
        `Set "maxmemory-policy ${REQUIRED_POLICY}" in redis.conf (or CONFIG SET maxmemory-policy ${REQUIRED_POLICY}) and start again.`,
    );
  }
  return policy;
}
