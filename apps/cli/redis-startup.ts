import type { Redis } from 'ioredis';
import { ALL_QUEUES, type QueueClient } from '../../core/queues.ts';
import { createConnectionLog, watchConnection, assertNoEviction } from '../../shared/redis/index.ts';
import type { Logger } from '../../shared/telemetry/index.ts';

/**
 * What every long-running process (workers, watcher, gateway, dev) does with Redis before it
 * starts work: refuses an evicting Redis, and routes the connection errors of its client and of
 * every BullMQ Queue on it through the JSON logger, one line per change of state (a Queue with no
 * 'error' listener prints every reconnect failure with console.error).
 * @throws PermanentError REDIS_EVICTION_POLICY when Redis's maxmemory-policy is not noeviction.
 */
export async function prepareRedis(ports: { redis: Redis; queues: QueueClient }, log: Logger): Promise<void> {
  const policy = await assertNoEviction(ports.redis);
  if (policy === null) log.warn('could not read Redis maxmemory-policy (CONFIG and INFO refused): make sure it is noeviction');
  const connectionLog = createConnectionLog(log);
  watchConnection(ports.redis, 'redis', connectionLog, { readyEvents: true });
  for (const def of ALL_QUEUES) watchConnection(ports.queues.queue(def), 'redis', connectionLog);
}
