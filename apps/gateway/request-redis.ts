import { Redis } from 'ioredis';
import { RetryableError } from '../../shared/errors.ts';

/** How long one Redis command of a request may take before the request answers 503. @defaultValue 1000 */
export const REQUEST_COMMAND_TIMEOUT_MS = 1000;

/**
 * A Redis client for the gateway's request paths: fail fast, never queue. Commands sent while Redis
 * is down are rejected at once (no offline queue) instead of waiting for a reconnect, and a command
 * in flight when the connection drops is failed, not re-sent later (maxRetriesPerRequest 0): a
 * query the client has given up on must not be enqueued minutes afterwards. Reconnects keep
 * trying in the background, at most every 2 s.
 * Not for blocking commands (QueueEvents, Workers): they need `maxRetriesPerRequest: null`.
 */
export function createRequestRedis(url: string, opts: { commandTimeoutMs?: number } = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? REQUEST_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
}

/**
 * Resolves when `redis` is ready (now or within `timeoutMs`).
 * @throws RetryableError REDIS_UNAVAILABLE when it is not ready by then.
 */
export async function whenReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new RetryableError('REDIS_UNAVAILABLE', `Redis was not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}

/**
 * `promise`, or REDIS_UNAVAILABLE after `ms` (for a health probe, whose answer is due sooner than
 * the command timeout; the command itself is harmless if it completes later).
 * @throws RetryableError REDIS_UNAVAILABLE on the deadline.
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RetryableError('REDIS_UNAVAILABLE', `Redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
