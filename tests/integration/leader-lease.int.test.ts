import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLeaderLease, type LeaderLease } from '../../apps/watcher/leader-lease.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createRedis } from '../../queues/redis-connection.ts';
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

  it('a leader whose work fails to start says so, lets go of the lease, and tries again; never "held by another process"', async () => {
    const lines: string[] = [];
    const capturing = createLogger('info', {}, (line) => lines.push(line));
    let failures = 2;
    const events: string[] = [];
    const lease = await startLeaderLease({
      redis: client,
      key: 't:lease4',
      log: capturing,
      ttlMs: 10_000,
      renewMs: 50,
      onAcquire: () => {
        if (failures-- > 0) throw new Error('ENOENT: no such file or directory, lstat inbox');
        events.push('+');
      },
      onLose: () => void events.push('-'),
    });
    // Released at once (not left for its 10 s ttl), so a later attempt takes it and starts.
    await until('the third attempt to lead', () => lease.isLeader());
    expect(events.at(-1)).toBe('+');
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain('could not start as leader: lease released, trying again');
    expect(messages.filter((m) => m.startsWith('could not start'))).toHaveLength(1);
    expect(messages.some((m) => m.includes('held by another process'))).toBe(false);
    await lease.stop();
    expect(await client.get('t:lease4')).toBeNull();
  });

  it('standing by is said when another process holds the lease', async () => {
    const lines: string[] = [];
    await client.set('t:lease5', 'another-process', 'PX', 10_000);
    const lease = await startLeaderLease({ redis: client, key: 't:lease5', log: createLogger('info', {}, (line) => lines.push(line)), onAcquire: () => undefined, onLose: () => undefined });
    expect(lease.isLeader()).toBe(false);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain('leader lease held by another process: standing by');
    await lease.stop();
    await client.del('t:lease5');
  });
});
