import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureRedis, freePort, redisAnswers } from '../../apps/cli/local-redis.ts';
import { REDIS_AVAILABLE, startTestRedis, unusedRedisUrl } from '../helpers/redis.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const root = path.resolve(import.meta.dirname, '../..');
const emptyDir = tempDirs('quarry-nopath-');

describe('finding or starting Redis', () => {
  it('a remote Redis that does not answer is named in the error', async () => {
    await expect(ensureRedis(`redis://127.0.0.2:${await freePort()}`, '/nonexistent')).rejects.toThrow(/no Redis answers at redis:\/\/127\.0\.0\.2/);
  }, 20_000);

  it('without redis-server on the PATH, the demo says how to install it', async () => {
    // An empty PATH: node is started by its full path, redis-server cannot be found.
    const env = { PATH: emptyDir(), HOME: process.env.HOME ?? '/tmp', REDIS_URL: await unusedRedisUrl() };
    const result = await promisify(execFile)(process.execPath, [path.join(root, 'apps/cli/quarry.mjs'), 'demo'], { cwd: root, env, timeout: 60_000 }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toMatch(/redis-server was not found[\s\S]*apt-get install -y redis-server[\s\S]*REDIS_URL/);
  }, 60_000);

  it.skipIf(!REDIS_AVAILABLE)('a private redis-server starts on a free port, stops and starts again', async () => {
    const redis = await startTestRedis();
    try {
      expect(await redisAnswers(redis.url)).toBe(true);
      await redis.stop();
      expect(await redisAnswers(redis.url, 300)).toBe(false);
      await redis.restart();
      expect(await redisAnswers(redis.url)).toBe(true);
    } finally {
      await redis.cleanup();
    }
  });
});
