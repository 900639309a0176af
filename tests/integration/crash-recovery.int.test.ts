import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import type { Config } from '../../shared/config/config.ts';
import { generateCorpus } from '../fixtures/corpus.ts';
import { settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** `quarry workers start` in a child process, with the test's config in its environment. */
function spawnWorkers(config: Config, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'apps/cli/quarry.mjs'), 'workers', 'start'], {
    cwd: root,
    env: {
      ...process.env,
      REDIS_URL: config.redisUrl,
      QUARRY_PREFIX: config.prefix,
      QUARRY_DATA_DIR: config.dataDir,
      QUARRY_WATCH_DIR: config.watchDir,
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

describe.skipIf(!REDIS_AVAILABLE)('a worker killed with SIGKILL mid-ingest', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let watcher: Service;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    // A short lock so the restarted worker picks up the killed one's jobs within seconds. The
    // reconciler (in the watcher's process) waits longer than the test: a worker's death alone
    // must never leave a document for it to repair — jobs handed out again must finish the work.
    ws = testWorkspace(redis.url, { WORKER_LOCK_MS: '3000', WORKER_CONCURRENCY: '3', RECONCILE_GRACE_MS: '600000' });
    await generateCorpus(ws.config.watchDir, { count: 50, seed: 23 });
    watcher = await startPipeline(ws.config, { workers: false });
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await watcher?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('loses no document and duplicates no chunk after a restart', async () => {
    const env = { WORKER_LOCK_MS: '3000', WORKER_CONCURRENCY: '3' };
    const first = spawnWorkers(ws.config, env);
    children.push(first);
    await watcher.watcher!.ready;

    // Kill it once a few documents are through and most are not.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const indexed = (await watcher.ports.status.list()).filter((s) => s.state === 'indexed').length;
      if (indexed >= 5) break;
      if (Date.now() > deadline) throw new Error('the first worker indexed nothing');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = (await watcher.ports.status.list()).filter((s) => s.state === 'indexed').length;
    expect(atKill).toBeLessThan(50);

    children.push(spawnWorkers(ws.config, env));
    const statuses = await settle(watcher, { count: 50, timeoutMs: 240_000 });
    expect(statuses.filter((s) => s.state !== 'indexed').map((s) => `${s.docId}: ${s.state} ${s.errorCode ?? ''}`)).toEqual([]);

    let total = 0;
    for (const s of statuses) {
      const stored = await watcher.ports.store.listChunkIds(s.docId);
      const ids = stored.map((c) => c.chunk_id);
      expect(new Set(ids).size).toBe(ids.length); // no duplicate chunk
      const { chunks } = await watcher.ports.artifacts.getJson(s.docId, s.version, 'enriched.json');
      expect(ids.sort()).toEqual(chunks.map((c) => c.chunk_id).sort()); // no lost chunk
      total += ids.length;
    }
    expect(await watcher.ports.store.countChunks()).toBe(total);
  }, 300_000);
});
