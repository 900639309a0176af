import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
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

/**
 * A URL at which no Redis answers, and none will: its port is free and below the system's
 * ephemeral range, so no other test's Redis (started on a port the system handed out) takes it
 * meanwhile. For a test that has Quarry find nothing there and start (or fail to start) its own.
 */
export async function unusedRedisUrl(): Promise<string> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return `redis://127.0.0.1:${port}`;
  }
}
