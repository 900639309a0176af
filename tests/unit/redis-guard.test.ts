import { describe, expect, it } from 'vitest';
import { nextConnectionStep, QUIET_MS, throttledErrorLog, type ConnectionStatus } from '../../shared/redis/connection-log.ts';
import { assertNoEviction, policyFromInfo, readEvictionPolicy } from '../../shared/redis/redis-policy.ts';
import { isRedisUnavailable } from '../../core/failures.ts';
import { rateLimitKey } from '../../apps/gateway/rate-limit.ts';

const INFO = '# Memory\r\nused_memory:1000\r\nmaxmemory:0\r\nmaxmemory_policy:volatile-lru\r\nallocator_frag_ratio:1.0\r\n';

/** A Redis whose CONFIG command is disabled, as on some managed services. */
const noConfig = (info: string) => ({
  config: async () => {
    throw new Error("ERR unknown command 'CONFIG'");
  },
  info: async () => info,
});

describe('maxmemory-policy check', () => {
  it('reads the policy from INFO memory', () => {
    expect(policyFromInfo(INFO)).toBe('volatile-lru');
    expect(policyFromInfo('# Memory\r\nused_memory:1\r\n')).toBeNull();
  });

  it('falls back to INFO when CONFIG is refused, and refuses anything but noeviction', async () => {
    expect(await readEvictionPolicy(noConfig(INFO) as never)).toBe('volatile-lru');
    await expect(assertNoEviction(noConfig(INFO) as never)).rejects.toMatchObject({ code: 'REDIS_EVICTION_POLICY', message: expect.stringContaining('volatile-lru') });
    expect(await assertNoEviction(noConfig(INFO.replace('volatile-lru', 'noeviction')) as never)).toBe('noeviction');
  });
});

describe('connection log steps', () => {
  const up: ConnectionStatus = { state: 'up', suppressed: 0, lastErrorAt: 0 };

  it('writes one line when a connection goes down and one when it is back, however many errors come between', () => {
    let s = nextConnectionStep(up, 'error', 1000);
    expect(s.line?.msg).toBe('redis connection lost');
    for (let i = 1; i <= 50; i++) {
      s = nextConnectionStep(s, 'error', 1000 + i * 100);
      expect(s.line).toBeNull();
    }
    expect(s.suppressed).toBe(50);
    s = nextConnectionStep(s, 'ready', 7000);
    expect(s).toMatchObject({ state: 'up', line: { level: 'info', msg: 'redis connection restored' } });
    expect(nextConnectionStep(s, 'ready', 7100).line).toBeNull();
  });

  it('logs again after a quiet spell for sources that never report ready', () => {
    const down = nextConnectionStep(up, 'error', 1000);
    expect(nextConnectionStep(down, 'error', 1000 + QUIET_MS + 1).line?.msg).toBe('redis connection lost');
  });
});

describe('gateway helpers', () => {
  it('tells a Redis outage from other errors', () => {
    expect(isRedisUnavailable(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
    expect(isRedisUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isRedisUnavailable(new Error('Command timed out'))).toBe(true);
    expect(isRedisUnavailable(new Error('ERR wrong number of arguments'))).toBe(false);
  });

  it('counts requests by a hash of the key, or by IP without one', () => {
    const withKey = rateLimitKey({ headers: { 'x-api-key': 'secret-key' }, ip: '10.0.0.1' });
    expect(withKey).toMatch(/^key:[0-9a-f]{32}$/);
    expect(withKey).not.toContain('secret');
    expect(rateLimitKey({ headers: { authorization: 'Bearer secret-key' }, ip: '10.0.0.2' })).toBe(withKey);
    expect(rateLimitKey({ headers: {}, ip: '10.0.0.1' })).toBe('ip:10.0.0.1');
  });
});

describe('throttled error log', () => {
  it('logs the first error, then one line per quiet spell with the count swallowed', () => {
    const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
    const log = { debug() {}, info() {}, warn() {}, error: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, fields }), child: () => log };
    let t = 0;
    const onError = throttledErrorLog(log, 'worker error', () => t);
    for (; t < 10_000; t += 100) onError(new Error('connect ECONNREFUSED'));
    expect(lines).toEqual([{ msg: 'worker error', fields: { error: 'connect ECONNREFUSED', suppressedErrors: 0 } }]);
    t = QUIET_MS + 1;
    onError(new Error('connect ECONNREFUSED'));
    expect(lines[1]).toEqual({ msg: 'worker error', fields: { error: 'connect ECONNREFUSED', suppressedErrors: 99 } });
  });
});
