import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { defineLuaScript } from '../../shared/redis/lua.ts';

/** A stand-in for ioredis that records the commands and answers EVALSHA as told. */
function fakeRedis(evalsha: () => Promise<unknown>) {
  const calls: unknown[][] = [];
  const redis = {
    evalsha: (...args: unknown[]) => (calls.push(['evalsha', ...args]), evalsha()),
    eval: (...args: unknown[]) => (calls.push(['eval', ...args]), Promise.resolve(7)),
  } as unknown as Redis;
  return { redis, calls };
}

const ECHO = defineLuaScript<[key: string], [value: string | number], number>({
  name: 'echo',
  keys: 1,
  source: 'return tonumber(ARGV[1])',
  reply: (raw) => Number(raw),
});

describe('defineLuaScript (shared/redis/lua.ts)', () => {
  it('runs by sha1 of the source, KEYS then ARGV, and parses the reply', async () => {
    const { redis, calls } = fakeRedis(() => Promise.resolve('3'));
    expect(ECHO.sha).toBe(createHash('sha1').update('return tonumber(ARGV[1])').digest('hex'));
    expect(await ECHO.run(redis, ['k'], [3])).toBe(3);
    expect(calls).toEqual([['evalsha', ECHO.sha, 1, 'k', 3]]);
  });

  it('falls back to EVAL on NOSCRIPT only', async () => {
    const missing = fakeRedis(() => Promise.reject(new Error('NOSCRIPT No matching script. Please use EVAL.')));
    expect(await ECHO.run(missing.redis, ['k'], ['x'])).toBe(7);
    expect(missing.calls.map((c) => c[0])).toEqual(['evalsha', 'eval']);
    expect(missing.calls[1]).toEqual(['eval', ECHO.source, 1, 'k', 'x']);

    const failing = fakeRedis(() => Promise.reject(new Error('DIMENSION_MISMATCH stored centroid has 4 dimensions')));
    await expect(ECHO.run(failing.redis, ['k'], ['x'])).rejects.toThrow(/^DIMENSION_MISMATCH/);
    expect(failing.calls.map((c) => c[0])).toEqual(['evalsha']);
  });

  it('refuses a wrong number of KEYS before sending anything', async () => {
    const { redis, calls } = fakeRedis(() => Promise.resolve(1));
    const atLeastTwo = defineLuaScript<[string, string, ...string[]], [], number>({ name: 'two', keys: { min: 2 }, source: 'return 1', reply: Number });
    await expect(ECHO.run(redis, ['a', 'b'] as unknown as [string], [1])).rejects.toThrow(TypeError);
    await expect(atLeastTwo.run(redis, ['a'] as unknown as [string, string], [])).rejects.toThrow(/at least 2/);
    expect(calls).toEqual([]);
    expect(await atLeastTwo.run(redis, ['a', 'b', 'c'], [])).toBe(1);
  });
});
