import { UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForSettled } from '../../apps/cli/wait.ts';
import { startService, type Service } from '../../apps/cli/service.ts';
import { chunkQueue, embedQueue } from '../../queues/ingest.queues.ts';
import { createQueueClient } from '../../queues/queue-client.ts';
import { docIdForSource } from '../../shared/domain/index.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createStatusStore } from '../../shared/status/status-store.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';
import { createRedis } from '../../queues/redis-connection.ts';
import { reconcileOnce } from '../../workers/runtime/reconciler.ts';
import type { StageWorkerDefinition } from '../../workers/runtime/stage-worker.ts';
import { corpusDocName, generateCorpus } from '../fixtures/corpus.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const COUNT = 8;
const SEED = 57;
// The reconciler runs every half second on records older than 1.5 s: fast enough for a test,
// and still longer than any hand-over between two stages here.
const ENV = { RECONCILE_INTERVAL_MS: '500', RECONCILE_GRACE_MS: '1500', WORKER_LOCK_MS: '2000', WORKER_CONCURRENCY: '3' };

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Chunk ids are unique, and exactly those of each document's enriched artifact: none lost, none duplicated. */
async function expectExactChunks(service: Service): Promise<void> {
  const statuses = await service.ports.status.list();
  let total = 0;
  for (const s of statuses) {
    const ids = (await service.ports.store.listChunkIds(s.docId)).map((c) => c.chunk_id);
    expect(new Set(ids).size).toBe(ids.length);
    const { chunks } = await service.ports.artifacts.getJson(s.docId, s.version, 'enriched.json');
    expect(ids.sort()).toEqual(chunks.map((c) => c.chunk_id).sort());
    total += ids.length;
  }
  expect(await service.ports.store.countChunks()).toBe(total);
}

describe.skipIf(!REDIS_AVAILABLE)('ingestion converges after Redis loses its data (persistence off)', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service | null = null;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    redis = await startTestRedis(); // persistence off: a restart empties it
    ws = testWorkspace(redis.url, ENV);
    await generateCorpus(ws.config.watchDir, { count: COUNT, seed: SEED });
  }, 60_000);

  afterAll(async () => {
    release();
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('a worker still running a job from before the loss neither collides with nor undoes the document’s new run', async () => {
    const target = docIdForSource(`dir:${corpusDocName(SEED, 0)}.pdf`);
    const gate = new Promise<void>((r) => (release = r));
    let entered: () => void = () => undefined;
    const inGate = new Promise<void>((r) => (entered = r));
    let staleDone = false;
    let first = true;
    // The first sectionize of the target is held until the test lets it go: a stale in-flight job.
    const sectionize: StageWorkerDefinition = {
      ...INGEST_WORKERS.sectionize,
      handler: async (p, ctx) => {
        const mine = first && (p as { docId: string }).docId === target;
        if (!mine) return INGEST_WORKERS.sectionize.handler(p, ctx);
        first = false;
        entered();
        await gate;
        try {
          return await INGEST_WORKERS.sectionize.handler(p, ctx);
        } finally {
          staleDone = true;
        }
      },
    };
    const workers = Object.values({ ...INGEST_WORKERS, sectionize });
    service = await startService(ws.config, { workers, watch: true, log: createLogger('silent') });
    await Promise.race([inGate, new Promise((_, reject) => setTimeout(() => reject(new Error('the target never reached sectionize')), 60_000))]);
    const before = (await service.ports.status.get(target))!;

    await redis.stop();
    await redis.restart();

    // The lease is lost with the data and taken again; the watcher's rescan registers every file
    // anew, and the pipeline indexes the target while its old job still hangs.
    await until('the target indexed again', async () => (await service!.ports.status.get(target).catch(() => null))?.state === 'indexed', 60_000);
    const after = (await service.ports.status.get(target))!;
    expect(after.gen).not.toBe(before.gen);

    release();
    await until('the stale job to finish', async () => staleDone);
    await new Promise((r) => setTimeout(r, 2000)); // a reconciler pass or more
    const statuses = await settle(service, { count: COUNT, timeoutMs: 120_000 });
    expect(statuses.map((s) => `${s.docId}: ${s.state}@${s.stage} ${s.errorCode ?? ''}`).filter((l) => !l.includes(': indexed@'))).toEqual([]);
    expect((await service.ports.status.get(target))?.state).toBe('indexed');
    await expectExactChunks(service);
  }, 240_000);

  it('the reconciler re-enqueues a stage whose job was lost and registers a file whose status was lost', async () => {
    const svc = service!;
    const [lostJob, lostStatus] = await svc.ports.status.list();
    // (a) The status says queued at embed, but that stage's job is long completed (the add of a
    // new one was lost): only removing the old job lets the stage run again.
    await svc.ports.status.update(lostJob!.docId, lostJob!.version, lostJob!.gen, { state: 'queued', stage: 'embed' });
    const embedJobId = embedQueue.jobId({ docId: lostJob!.docId, version: lostJob!.version, gen: lostJob!.gen });
    const oldFinish = (await svc.ports.queues.queue(embedQueue).getJob(embedJobId))?.finishedOn ?? 0;
    // (c) A status record lost (a failover to a replica that never had it); its file is still there.
    await svc.ports.redis.del(`${ws.config.prefix}:doc:${lostStatus!.docId}`);
    await svc.ports.redis.zrem(`${ws.config.prefix}:docs`, lostStatus!.docId);

    await waitForSettled(svc.ports.status, { docIds: [lostJob!.docId, lostStatus!.docId], timeoutMs: 60_000, intervalMs: 100 });
    expect((await svc.ports.status.get(lostJob!.docId))?.state).toBe('indexed');
    expect((await svc.ports.queues.queue(embedQueue).getJob(embedJobId))?.finishedOn ?? 0).toBeGreaterThan(oldFinish);
    expect((await svc.ports.status.get(lostStatus!.docId))?.state).toBe('indexed');
    await settle(svc, { count: COUNT, timeoutMs: 60_000 });
    await expectExactChunks(svc);
  }, 120_000);

  it('the reconciler fails a document whose job failed unseen (its failed event lost), with the code of its reason', async () => {
    const prefix = `rc${Math.random().toString(36).slice(2, 8)}`;
    const conn = createRedis(redis.url);
    const status = createStatusStore(conn, prefix);
    const queues = createQueueClient(conn, prefix);
    const worker = new Worker(chunkQueue.name, null, { connection: createRedis(redis.url), prefix, autorun: false });
    try {
      const version = 'b'.repeat(64);
      const { gen } = await status.register({ docId: 'lost', sourceKey: 'dir:lost.pdf', version });
      await status.update('lost', version, gen, { state: 'running', stage: 'chunk' });
      await queues.enqueue(chunkQueue, { docId: 'lost', version, gen });
      const job = await worker.getNextJob('t1');
      await job!.moveToFailed(new UnrecoverableError('job stalled more than allowable limit'), 't1');

      const log = createLogger('silent');
      // Within the grace period nothing happens.
      expect(await reconcileOnce({ status, queues, log, graceMs: 60_000 })).toEqual({ requeued: 0, failed: 0, registered: 0 });
      expect((await status.get('lost'))?.state).toBe('running');
      const later = () => Date.now() + 120_000;
      expect(await reconcileOnce({ status, queues, log, graceMs: 60_000, clock: later })).toEqual({ requeued: 0, failed: 1, registered: 0 });
      expect(await status.get('lost')).toMatchObject({ state: 'failed', stage: 'chunk', errorCode: 'WORKER_LOST' });
      // Idempotent: a second pass finds nothing left to do.
      expect(await reconcileOnce({ status, queues, log, graceMs: 60_000, clock: later })).toEqual({ requeued: 0, failed: 0, registered: 0 });
    } finally {
      await worker.close();
      await queues.close();
      conn.disconnect();
    }
  }, 30_000);
});
