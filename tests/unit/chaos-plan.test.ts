import { describe, expect, it } from 'vitest';
import { childEnv, processArgs } from '../../chaos/chaos-cluster.ts';
import { CHAOS_PROCESSES, CHAOS_WORKERS, killSchedule, parseChaosArgs, redisRestartDue } from '../../chaos/chaos-plan.ts';

describe('chaos options', () => {
  it('defaults to 200 documents, both modes, JSON off', () => {
    const o = parseChaosArgs([]);
    expect(o).toMatchObject({ docs: 200, modes: ['aof', 'none'], json: false, keep: false, killWatcher: false });
    expect(o.seconds).toBeGreaterThanOrEqual(10);
  });

  it('reads --docs N, --docs=N, --modes, --seconds and --json', () => {
    expect(parseChaosArgs(['--docs', '20', '--modes=none', '--seconds', '60', '--json'])).toMatchObject({ docs: 20, modes: ['none'], seconds: 60, json: true });
    expect(parseChaosArgs(['--docs=7', '--modes', 'none,aof,none']).modes).toEqual(['none', 'aof']);
    expect(parseChaosArgs(['--kill-watcher']).killWatcher).toBe(true);
  });

  it('rejects unknown options, modes and bad numbers', () => {
    expect(() => parseChaosArgs(['--dcos', '3'])).toThrow(/unknown option --dcos/);
    expect(() => parseChaosArgs(['--modes', 'aof,rdb'])).toThrow(/rdb/);
    expect(() => parseChaosArgs(['--docs', '0'])).toThrow(/--docs/);
    expect(() => parseChaosArgs(['--docs'])).toThrow(/--docs/);
    expect(() => parseChaosArgs(['--seconds', '2.5'])).toThrow(/--seconds/);
  });
});

describe('chaos schedule', () => {
  it('kills every 2–5 s, a process drawn from all workers, the same for the same seed', () => {
    const a = killSchedule(12, 1);
    const b = killSchedule(12, 1);
    const delays = Array.from({ length: 200 }, () => a.nextDelayMs());
    expect(delays).toEqual(Array.from({ length: 200 }, () => b.nextDelayMs()));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000);
    expect(new Set(delays).size).toBeGreaterThan(50);
    const victims = new Set(Array.from({ length: 300 }, () => a.nextVictim()));
    expect([...victims].sort()).toEqual([...CHAOS_WORKERS].sort());
  });

  it('kills the watcher only when asked to', () => {
    const s = killSchedule(12, 1, { victims: CHAOS_PROCESSES });
    expect(new Set(Array.from({ length: 300 }, () => s.nextVictim())).has('watcher')).toBe(true);
  });

  it('restarts Redis once, a third of the way through the corpus or the time bound', () => {
    const at = { settled: 0, total: 200, elapsedMs: 0, boundMs: 300_000, done: false };
    expect(redisRestartDue(at)).toBe(false);
    expect(redisRestartDue({ ...at, settled: 60 })).toBe(true);
    expect(redisRestartDue({ ...at, elapsedMs: 100_000 })).toBe(true);
    expect(redisRestartDue({ ...at, settled: 60, done: true })).toBe(false);
  });
});

describe('chaos processes', () => {
  it('runs `quarry workers start --only <stage>` per worker and `quarry watch` for the watcher', () => {
    expect(processArgs('facet-rebuild')).toEqual(['workers', 'start', '--only', 'facet-rebuild']);
    expect(processArgs('watcher')).toEqual(['watch']);
  });

  it('never passes the caller’s Quarry or OpenTelemetry settings to its processes', () => {
    const env = childEnv({ PATH: '/bin', REDIS_URL: 'redis://prod:6379', WEAVIATE_URL: 'http://w', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://o' }, { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(env).toEqual({ PATH: '/bin', REDIS_URL: 'redis://127.0.0.1:1' });
  });
});
