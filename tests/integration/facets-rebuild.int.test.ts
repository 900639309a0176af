import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { facetRebuildQueue, requestFacetRebuild } from '../../queues/facets.queues.ts';
import type { JobCounts } from '../../queues/queue-client.ts';
import { chunkIdFor } from '../../shared/domain/index.ts';
import { FACET_NAMES } from '../../shared/store/facet-values.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { facetRebuildWorker } from '../../workers/facet-rebuild/facet-rebuild.worker.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';
import { runStageOnce } from '../../workers/runtime/run-once.ts';
import { defineStageWorker } from '../../workers/runtime/stage-worker.ts';
import { startWorkers, type WorkerGroup } from '../../workers/runtime/start-workers.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples/docs');
const log = createLogger('error', { service: 'facets-test' });

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

const open = (c: JobCounts) => c.waiting + c.delayed + c.prioritized + c.active;

describe.skipIf(!REDIS_AVAILABLE)('facet-value vectors: upserts → one debounced rebuild → facet_values', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let rebuilders: WorkerGroup | null = null;
  const counts = () => service.ports.queues.counts(facetRebuildQueue);
  async function drained(): Promise<JobCounts> {
    await until('facet-rebuild to drain', async () => open(await counts()) === 0);
    return counts();
  }

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { FACET_REBUILD_DEBOUNCE_MS: '300' });
    for (const file of readdirSync(EXAMPLES)) copyFileSync(path.join(EXAMPLES, file), path.join(ws.config.watchDir, file));
    // The ingest workers only: rebuild requests pile up (or rather, do not) until a rebuilder runs.
    service = await startService(ws.config, { workers: Object.values(INGEST_WORKERS), watch: true });
  }, 60_000);

  afterAll(async () => {
    await rebuilders?.close();
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('ingesting the example corpus asks for exactly one rebuild; it fills facet_values with every value present', async () => {
    const statuses = await settle(service, { count: 10, timeoutMs: 120_000 });
    expect(statuses.filter((s) => s.state !== 'indexed').map((s) => `${s.docId}: ${s.errorCode}`)).toEqual([]);
    // Ten upserts, each asking for a rebuild: one job.
    const pending = await counts();
    expect(open(pending)).toBe(1);
    expect(pending.completed + pending.active).toBe(0);
    expect(await service.ports.store.listFacetValues()).toEqual([]);

    rebuilders = startWorkers([facetRebuildWorker], service.ports, log);
    const done = await drained();
    expect(done.completed).toBe(1);
    expect(done.failed).toBe(0);

    const dimension = service.ports.embedder.dimension;
    for (const facet of FACET_NAMES) {
      const present = await service.ports.store.aggregate({ groupBy: facet });
      expect(present.length).toBeGreaterThan(0);
      const rows = await service.ports.store.listFacetValues(facet);
      // Every value chunks carry has its row, counting exactly those chunks; nothing else.
      expect(Object.fromEntries(rows.map((r) => [r.value, r.sample_count]))).toEqual(Object.fromEntries(present.map((b) => [b.value, b.count])));
      for (const row of rows) {
        expect(row.vector).toHaveLength(dimension);
        expect(row.description.length).toBeGreaterThan(20);
      }
    }
    const values = (facet: (typeof FACET_NAMES)[number]) => service.ports.store.listFacetValues(facet).then((rows) => rows.map((r) => r.value));
    expect(await values('doc_type')).toEqual(['faq', 'guideline', 'law', 'policy', 'standard']);
    expect(await values('jurisdiction')).toEqual(['EU', 'KR', 'US']);
    expect(await values('lang')).toEqual(['en', 'ko']);
    expect(await values('section')).toEqual(expect.arrayContaining(['eligibility', '지원 대상', '용어의 정의', 'definitions']));
    const [job] = await service.ports.queues.queue(facetRebuildQueue).getJobs(['completed']);
    expect(facetRebuildQueue.result.parse(job?.returnvalue).facets.map((f) => f.facet)).toEqual([...FACET_NAMES]);
  }, 180_000);

  it('a burst of rebuild requests, and a burst of real upserts, each yield one rebuild (at most two)', async () => {
    const before = (await drained()).completed;
    // 200 upserts' worth of requests at once.
    await Promise.all(Array.from({ length: 200 }, () => requestFacetRebuild(service.ports.queues, { debounceMs: 500 })));
    expect(open(await counts())).toBe(1);
    expect((await drained()).completed).toBe(before + 1);

    // Every document upserted again, concurrently, through the real upsert stage.
    const afterRequests = (await counts()).completed;
    const statuses = await service.ports.status.list();
    const ports = { ...service.ports, config: { ...service.ports.config, facets: { rebuildDebounceMs: 2000 } } };
    const upserts = [...statuses, ...statuses].map((s) => runStageOnce(INGEST_WORKERS.upsert, { docId: s.docId, version: s.version, gen: s.gen }, ports, log));
    await Promise.all(upserts);
    const after = (await drained()).completed - afterRequests;
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(2);
  }, 120_000);

  it('a request made while a rebuild runs is followed by one more rebuild (no lost update)', async () => {
    await rebuilders?.close();
    // The same worker, held at a gate so the test can act while it is running.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gated = defineStageWorker(facetRebuildQueue, { needs: facetRebuildWorker.needs }, async (payload, ctx) => {
      await gate;
      return facetRebuildWorker.handler(payload, ctx);
    });
    rebuilders = startWorkers([gated], service.ports, log);
    const before = (await drained()).completed;

    await requestFacetRebuild(service.ports.queues, { debounceMs: 100 });
    await until('the rebuild to start', async () => (await counts()).active === 1, 10_000, 10);
    // While it runs: a chunk with a new section arrives, then three more requests.
    const [doc] = await service.ports.status.list();
    const [first] = await service.ports.store.listChunkIds(doc!.docId);
    const [template] = await service.ports.store.fetchByIds([first!.chunk_id]);
    const body = 'A late passage written while the facet rebuild was running.';
    const late = { ...template!, chunk_id: chunkIdFor(doc!.docId, 'late arrival', body), section: 'late arrival', section_path: 'late arrival', body };
    await service.ports.store.upsertChunks([late]);
    for (let i = 0; i < 3; i++) await requestFacetRebuild(service.ports.queues, { debounceMs: 100 });
    const running = await counts();
    expect(running.active).toBe(1);
    expect(running.waiting + running.delayed).toBe(0); // kept aside by BullMQ until the running one ends
    release();

    const done = await drained();
    expect(done.completed).toBe(before + 2);
    expect((await service.ports.store.listFacetValues('section')).map((r) => r.value)).toContain('late arrival');
  }, 60_000);
});
