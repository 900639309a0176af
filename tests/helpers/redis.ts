import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redisServerAvailable, startRedisServer, type LocalRedis } from '../../apps/cli/local-redis.ts';

/** Integration suites need redis-server; .ci/run installs it, and without it they say why they skip. */
export const REDIS_AVAILABLE = redisServerAvailable();
if (!REDIS_AVAILABLE) console.warn('skipping Redis integration tests: redis-server is not installed (apt-get install redis-server)');

/** A private redis-server on a free port, in its own temp directory. */
export async function startTestRedis(opts: { appendonly?: boolean } = {}): Promise<LocalRedis & { cleanup(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-redis-'));
  const redis = await startRedisServer({ dir, appendonly: opts.appendonly });
  return {
    ...redis,
    async cleanup() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
