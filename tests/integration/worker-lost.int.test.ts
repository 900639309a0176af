import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../../apps/gateway/server.ts';
import { gatewayDeps } from '../../apps/gateway/gateway-deps.ts';
import type { Service } from '../../apps/cli/service.ts';
import { extractQueue } from '../../queues/ingest.queues.ts';
import type { Config } from '../../shared/config/config.ts';
import { retryFailedDocuments } from '../../core/documents/retry.ts';
import { generateCorpus } from '../fixtures/corpus.ts';
import { settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
// A short lock: a killed worker's job is found stalled within about a second.
const ENV = { WORKER_LOCK_MS: '1000', RECONCILE_INTERVAL_MS: '0' };

function spawnHangingWorker(config: Config): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'tests/helpers/hanging-extract-worker.ts')], {
    cwd: root,
    env: { ...process.env, REDIS_URL: config.redisUrl, QUARRY_PREFIX: config.prefix, QUARRY_DATA_DIR: config.dataDir, QUARRY_WATCH_DIR: config.watchDir, LOG_LEVEL: 'error', ...ENV },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!REDIS_AVAILABLE)('a job whose worker is killed past the stall limit', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let watcher: Service | null = null;
  let pipeline: Service | null = null;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, ENV);
    await generateCorpus(ws.config.watchDir, { count: 1, seed: 41 });
  }, 60_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await pipeline?.stop();
    await watcher?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('leaves the document failed WORKER_LOST; a retry (command, then endpoint) indexes it', async () => {
    watcher = await startPipeline(ws.config, { workers: false });
    await watcher.watcher!.ready;
    const [doc] = await watcher.ports.status.list();
    expect(doc).toBeDefined();
    const jobId = extractQueue.jobId({ docId: doc!.docId, version: doc!.version, gen: doc!.gen });
    const q = watcher.ports.queues.queue(extractQueue);

    // maxStalledCount is 2: the third worker killed holding the job uses up its stalls.
    for (let kill = 1; kill <= 3; kill++) {
      const child = spawnHangingWorker(ws.config);
      children.push(child);
      await until(`worker ${kill} to hold the job`, async () => {
        const job = await q.getJob(jobId);
        const held = (await job?.getState()) === 'active' && (job?.attemptsStarted ?? 0) >= kill;
        return held && (await watcher!.ports.status.get(doc!.docId))?.state === 'running';
      });
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }

    // The next worker finds it stalled once too often: BullMQ fails it without running it.
    pipeline = await startPipeline(ws.config, { watch: false });
    const [failed] = await settle(pipeline, { docIds: [doc!.docId], timeoutMs: 30_000 });
    expect(failed).toMatchObject({ state: 'failed', stage: 'extract', errorCode: 'WORKER_LOST' });
    expect(failed?.errorMessage).toMatch(/stall limit/);
    expect(await (await q.getJob(jobId))?.getState()).toBe('failed');

    // `quarry ingest retry --failed` runs it again from its stored source.
    const outcomes = await retryFailedDocuments(pipeline.ports);
    expect(outcomes).toEqual([expect.objectContaining({ docId: doc!.docId, retried: true })]);
    const [indexed] = await settle(pipeline, { docIds: [doc!.docId], timeoutMs: 60_000 });
    expect(indexed).toMatchObject({ state: 'indexed', errorCode: null });

    // The admin endpoint does the same; an indexed document is not failed: 409, unknown: 404.
    const deps = gatewayDeps(pipeline.ports, { traceTtlSeconds: 60, recordFeedback: async () => ({ enqueued: false, chunks: 0 }) });
    const app = await buildGateway(deps, { keys: { query: ['q-key'], admin: ['a-key'] }, queryTimeoutMs: 1000, maxUploadBytes: 5_000_000 });
    try {
      const admin = { 'x-api-key': 'a-key' };
      const notFailed = await app.inject({ method: 'POST', url: `/v1/documents/${doc!.docId}/retry`, headers: admin });
      expect(notFailed.statusCode).toBe(409);
      expect(notFailed.json()).toMatchObject({ error: { code: 'NOT_FAILED' } });
      expect((await app.inject({ method: 'POST', url: '/v1/documents/nosuchdoc/retry', headers: admin })).statusCode).toBe(404);
      expect((await app.inject({ method: 'POST', url: `/v1/documents/${doc!.docId}/retry`, headers: { 'x-api-key': 'q-key' } })).statusCode).toBe(403);

      const current = (await pipeline.ports.status.get(doc!.docId))!;
      await pipeline.ports.status.update(doc!.docId, current.version, current.gen, { state: 'failed', error: { code: 'WORKER_LOST', message: 'again' } });
      const res = await app.inject({ method: 'POST', url: `/v1/documents/${doc!.docId}/retry`, headers: admin });
      expect(res.statusCode).toBe(202);
      const [again] = await settle(pipeline, { docIds: [doc!.docId], timeoutMs: 60_000 });
      expect(again).toMatchObject({ state: 'indexed', errorCode: null });
      expect(again!.gen).not.toBe(current.gen);
    } finally {
      await app.close();
      await deps.close();
    }
  }, 180_000);
});
