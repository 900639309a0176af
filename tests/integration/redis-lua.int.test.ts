import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cappedScripts from '../../shared/runs/capped-scripts.ts';
import * as memoryScripts from '../../shared/memory/memory-scripts.ts';
import * as heldKeyScripts from '../../shared/redis/held-key-scripts.ts';
import { defineLuaScript } from '../../shared/redis/lua.ts';
import * as statusScripts from '../../shared/status/status-scripts.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const LENGTH_AND_KEY = defineLuaScript<[key: string], [bytes: Buffer], [number, string]>({
  name: 'length-and-key',
  keys: 1,
  source: `return {#ARGV[1], KEYS[1]}`,
  reply: (raw) => raw as [number, string],
});

describe.skipIf(!REDIS_AVAILABLE)('Lua scripts through shared/redis/lua.ts (real Redis)', () => {
  let server: Awaited<ReturnType<typeof startTestRedis>>;
  let redis: Redis;

  beforeAll(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.cleanup();
  });

  it('runs with binary arguments, and again after Redis forgot its scripts (NOSCRIPT → EVAL)', async () => {
    const bytes = Buffer.from([0, 255, 0, 128]);
    expect(await LENGTH_AND_KEY.run(redis, ['lua:k'], [bytes])).toEqual([4, 'lua:k']);
    expect(await redis.script('EXISTS', LENGTH_AND_KEY.sha)).toEqual([1]);
    await redis.script('FLUSH');
    expect(await LENGTH_AND_KEY.run(redis, ['lua:k'], [bytes])).toEqual([4, 'lua:k']);
    expect(await redis.script('EXISTS', LENGTH_AND_KEY.sha)).toEqual([1]);
  });

  it('every script of the codebase compiles in Redis under the sha1 it runs by', async () => {
    const all = [cappedScripts, memoryScripts, heldKeyScripts, statusScripts].flatMap((m) => Object.values(m));
    expect(all.map((s) => s.name).sort()).toEqual([
      'memory-apply-outcome',
      'memory-decay-batch',
      'put-capped',
      'release-if-held',
      'renew-if-held',
      'status-mark-deleted',
      'status-mark-deleting',
      'status-register',
      'status-update',
    ]);
    for (const script of all) await script.load(redis);
  });
});
