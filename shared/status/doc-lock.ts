import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RetryableError } from '../errors.ts';
import { RELEASE_IF_HELD, RENEW_IF_HELD, docLockKey } from '../redis/index.ts';

/**
 * Runs `fn` holding a per-document lock, so the writes of two versions (or a write and a delete)
 * of one document never interleave in the vector store. The holder renews the lock while `fn`
 * runs; a killed holder stops renewing, so the lock frees itself within `ttlMs`.
 * @throws RetryableError STORE_UNAVAILABLE when the lock is not had within `waitMs` (the job retries).
 */
export async function withDocLock<T>(
  redis: Redis,
  prefix: string,
  docId: string,
  fn: () => Promise<T>,
  opts: { ttlMs?: number; waitMs?: number } = {},
): Promise<T> {
  const key = docLockKey(prefix, docId);
  const token = randomBytes(12).toString('hex');
  const ttlMs = opts.ttlMs ?? 10_000;
  const deadline = Date.now() + (opts.waitMs ?? 60_000);
  let delay = 20;
  while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline) throw new RetryableError('STORE_UNAVAILABLE', `document ${docId} is locked by another writer`);
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 500);
  }
  const renew = setInterval(() => {
    RENEW_IF_HELD.run(redis, [key], [token, ttlMs]).catch(() => undefined);
  }, Math.max(100, Math.floor(ttlMs / 3)));
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await RELEASE_IF_HELD.run(redis, [key], [token]);
  }
}
