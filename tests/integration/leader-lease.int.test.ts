import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLeaderLease, type LeaderLease } from '../../apps/watcher/leader-lease.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createRedis } from '../../workers/runtime/ports.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const log = createLogger('silent');

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!REDIS_AVAILABLE)('watcher leader lease', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let client: ReturnType<typeof createRedis>;
  beforeAll(async () => {
    redis = await startTestRedis();
    client = createRedis(redis.url);
  });
  afterAll(async () => {
    await client?.quit();
    await redis?.cleanup();
  });

  function contender(key: string, events: string[], name: string, ttlMs = 400): Promise<LeaderLease> {
    return startLeaderLease({ redis: client, key, log, ttlMs, renewMs: 50, onAcquire: () => void events.push(`${name}+`), onLose: () => void events.push(`${name}-`) });
  }

  it('one holder at a time; the next takes over when the holder stops', async () => {
    const events: string[] = [];
    const a = await contender('t:lease1', events, 'a');
    const b = await contender('t:lease1', events, 'b');
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    await new Promise((r) => setTimeout(r, 300));
    expect(b.isLeader()).toBe(false); // a keeps renewing
    await a.stop();
    await until('b to lead', () => b.isLeader());
    expect(events).toEqual(['a+', 'a-', 'b+']);
    await b.stop();
    expect(await client.get('t:lease1')).toBeNull();
  });

  it('a holder that stops renewing (crashed) loses the lease after its ttl; one that finds it taken steps down', async () => {
    const events: string[] = [];
    const a = await contender('t:lease2', events, 'a');
    expect(a.isLeader()).toBe(true);
    // Someone else holds the key now (a expired while partitioned, and another process took it).
    await client.set('t:lease2', 'someone-else', 'PX', 10_000);
    await until('a to step down', () => !a.isLeader());
    expect(events).toEqual(['a+', 'a-']);
    await client.del('t:lease2');
    await until('a to lead again', () => a.isLeader());
    await a.stop();

    // A crashed holder: its key stays until the ttl runs out, then a contender takes it.
    await client.set('t:lease3', 'crashed-process', 'PX', 300);
    const b = await contender('t:lease3', [], 'b');
    expect(b.isLeader()).toBe(false);
    await until('b to lead after the ttl', () => b.isLeader(), 3000);
    await b.stop();
  });
});
