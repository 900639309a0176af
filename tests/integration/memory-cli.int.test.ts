import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEK_MS } from '../../shared/memory/chunk-stats.ts';
import { createRedisMemoryStore } from '../../shared/memory/memory-store.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const bin = path.resolve(import.meta.dirname, '../../apps/cli/quarry.mjs');
const AT = Date.parse('2025-03-02T10:00:00.000Z');

describe.skipIf(!REDIS_AVAILABLE)('quarry memory', () => {
  let server: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let redis: Redis;
  let env: NodeJS.ProcessEnv;
  const chunk = randomUUID();

  const quarry = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [bin, 'memory', ...args], { cwd: ws.root, env, timeout: 60_000 });
      return { code: 0, out: stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: `${e.stdout}${e.stderr}` };
    }
  };

  beforeAll(async () => {
    server = await startTestRedis();
    ws = testWorkspace(server.url);
    redis = new Redis(server.url);
    const { config } = ws;
    env = { ...process.env, REDIS_URL: config.redisUrl, QUARRY_PREFIX: config.prefix, QUARRY_DATA_DIR: config.dataDir, LOG_LEVEL: 'error', MEMORY_HALF_LIFE_WEEKS: '4' };
    const store = createRedisMemoryStore(redis, config.prefix, { halfLifeMs: 4 * WEEK_MS });
    await store.applyOutcomes([{ chunkId: chunk, queryVector: Float32Array.from([3, 4]), intent: 'legal', entities: ['gdpr'], at: new Date(AT) }]);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.cleanup();
    ws?.cleanup();
  });

  it('shows a chunk, decays at a given time, and names a chunk without memory', async () => {
    const at4w = new Date(AT + 4 * WEEK_MS).toISOString();
    const show = await quarry('show', '--chunk-id', chunk, '--now', at4w);
    expect(show.code, show.out).toBe(0);
    expect(show.out).toMatch(/useful_count\s+1/);
    expect(show.out).toMatch(/utility now\s+0\.5000 .*half-life 4\.0 weeks/);

    const decay = await quarry('decay', '--now', at4w, '--json');
    expect(decay.code, decay.out).toBe(0);
    expect(JSON.parse(decay.out)).toEqual({ at: at4w, scanned: 1, updated: 1, pruned: 0 });
    const again = await quarry('decay', '--now', at4w);
    expect(again.out).toContain(`decayed at ${at4w}: scanned 1, updated 0, pruned 0`);

    const json = JSON.parse((await quarry('show', '--chunk-id', chunk, '--json', '--now', at4w)).out) as Record<string, unknown>;
    expect(json).toMatchObject({ chunkId: chunk, useful_count: 1, decayed_utility: 0.5, utility_now: 0.5, centroid_dimension: 2 });

    // Pruned once low (1/64 after 6 half-lives) and idle for 24 weeks.
    const late = await quarry('decay', '--now', new Date(AT + 24 * WEEK_MS).toISOString(), '--json');
    expect(JSON.parse(late.out)).toMatchObject({ pruned: 1 });
    const gone = await quarry('show', '--chunk-id', chunk);
    expect(gone.code).toBe(1);
    expect(gone.out).toMatch(/has no memory/);
    expect((await quarry('decay', '--now', 'soon')).out).toMatch(/--now must be an ISO time/);
  }, 120_000);
});
