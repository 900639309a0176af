import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureRedis } from '../../apps/cli/local-redis.ts';
import { startService } from '../../apps/cli/service.ts';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import { memoryUpdateQueue } from '../../queues/memory.queues.ts';
import { createRunContextStore } from '../../shared/runs/run-context.ts';
import { createTraceStore, type Trace } from '../../shared/runs/trace.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { defineStageWorker } from '../../workers/runtime/stage-worker.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis, unusedRedisUrl } from '../helpers/redis.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const newDir = tempDirs('quarry-redis-guard-');

const trace = (runId: string): Trace => ({
  runId,
  queryHash: 'abc',
  lang: 'en',
  asOf: null,
  startedAt: new Date().toISOString(),
  totalMs: 1,
  steps: [],
  verdict: 'OK',
  reason: 'grounded',
  loops: 0,
});

/** The test's own client: its errors during the outage are not the process's output under test. */
function testClient(url: string): Redis {
  const c = new Redis(url);
  c.on('error', () => undefined);
  return c;
}

/** A worker that is never given a job: the test is about its process's connections. */
const idleWorker = defineStageWorker(agentRunQueue, { needs: [] }, async () => {
  throw new Error('not expected to run');
});

describe.skipIf(!REDIS_AVAILABLE)('what Quarry asks of its Redis', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let client: Redis;

  beforeAll(async () => {
    redis = await startTestRedis();
    client = testClient(redis.url);
  });

  afterAll(async () => {
    client?.disconnect();
    await redis?.cleanup();
  });

  it('traces and run contexts keep only the newest TRACE_MAX_COUNT runs', async () => {
    const prefix = `tg${Date.now()}`;
    const traces = createTraceStore(client, prefix, 600, 3);
    const contexts = createRunContextStore(client, prefix, 600, 3);
    const ids = ['run-0000a', 'run-0000b', 'run-0000c', 'run-0000d', 'run-0000e'];
    for (const id of ids) {
      await traces.put(trace(id));
      await contexts.put({ runId: id, queryVector: [1], intent: 'lookup', entities: [], citedChunkIds: [] });
    }
    for (const id of ids.slice(0, 2)) {
      expect(await traces.get(id), id).toBeNull();
      expect(await contexts.get(id), id).toBeNull();
    }
    for (const id of ids.slice(2)) {
      expect((await traces.get(id))?.runId, id).toBe(id);
      expect((await contexts.get(id))?.runId, id).toBe(id);
    }
    // Nothing else is left behind: three values of each kind, three index entries each.
    expect((await client.keys(`${prefix}:trace:*`)).length).toBe(3);
    expect((await client.keys(`${prefix}:runctx:*`)).length).toBe(3);
    expect(await client.zcard(`${prefix}:traces:index`)).toBe(3);
    expect(await client.ttl(`${prefix}:traces:index`)).toBeGreaterThan(0);
  });

  it('a process refuses to start on a Redis that may evict keys, and says why', async () => {
    const ws = testWorkspace(redis.url);
    try {
      await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
      const refused = await startService(ws.config, { workers: [], watch: false, log: createLogger('silent') }).then(
        async (s) => {
          await s.stop();
          return null;
        },
        (err: unknown) => err,
      );
      expect(refused).toMatchObject({ code: 'REDIS_EVICTION_POLICY', message: expect.stringMatching(/maxmemory-policy is allkeys-lru.*noeviction/) });
    } finally {
      await client.config('SET', 'maxmemory-policy', 'noeviction');
      ws.cleanup();
    }
    const ws2 = testWorkspace(redis.url);
    const service = await startService(ws2.config, { workers: [], watch: false, log: createLogger('silent') });
    await service.stop();
    ws2.cleanup();
  });

  it('a worker process logs a Redis outage as JSON lines, not raw dumps', async () => {
    const ws = testWorkspace(redis.url);
    const lines: string[] = [];
    const consoleError = vi.spyOn(console, 'error');
    const consoleWarn = vi.spyOn(console, 'warn');
    const service = await startService(ws.config, { workers: [idleWorker], watch: false, log: createLogger('info', {}, (l) => lines.push(l)) });
    try {
      // As a stage does: a producer Queue on the process's client, besides the worker's own connections.
      await service.ports.queues.enqueue(memoryUpdateQueue, {
        runId: 'guard-run',
        outcomes: [{ chunkId: '0b7e4f5a-1c2d-5e3f-8a9b-0c1d2e3f4a5b', queryVector: [1], intent: 'lookup', entities: [] }],
        at: new Date().toISOString(),
      });
      await redis.stop();
      await new Promise((r) => setTimeout(r, 2500));
      await redis.restart();
      await new Promise((r) => setTimeout(r, 1500));
      expect(consoleError).not.toHaveBeenCalled();
      expect(consoleWarn).not.toHaveBeenCalled();
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(lines.some((l) => (JSON.parse(l) as { msg: string }).msg === 'redis connection lost')).toBe(true);
      // A few lines for the whole outage, not one per reconnect attempt of every connection.
      expect(lines.length).toBeLessThanOrEqual(6);
    } finally {
      consoleError.mockRestore();
      consoleWarn.mockRestore();
      await service.stop();
      ws.cleanup();
      client.disconnect();
      client = testClient(redis.url);
    }
  }, 30_000);

  it("quarry dev's private Redis runs with AOF on", async () => {
    const dir = newDir();
    const { url, started } = await ensureRedis(await unusedRedisUrl(), path.join(dir, 'redis'));
    expect(started).not.toBeNull();
    const dev = new Redis(url);
    try {
      expect(await dev.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await dev.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
    } finally {
      dev.disconnect();
      await started?.stop();
    }
  });
});
