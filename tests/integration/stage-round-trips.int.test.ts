import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForDrained, waitForSettled } from '../../apps/cli/wait.ts';
import { registerSource } from '../../core/sources/register-source.ts';
import { timePorts } from '../../bench/port-timing.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';
import { createPorts } from '../../workers/compose.ts';
import { startWorkers } from '../../workers/runtime/start-workers.ts';
import { generateCorpus } from '../fixtures/corpus.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const STAGES = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'];

// The per-document cost the runtime adds: status round trips per stage and schema checks per upsert.
describe.skipIf(!REDIS_AVAILABLE)('per-document round trips through the queues', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
  });
  afterAll(async () => {
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('two status writes per stage, one schema check per process, and every stage still recorded', async () => {
    const ports = await createPorts(ws.config);
    const calls = new Map<string, number>();
    const timed = timePorts(ports, (s) => calls.set(s.op, (calls.get(s.op) ?? 0) + 1));
    const group = startWorkers(Object.values(INGEST_WORKERS), timed, createLogger('error'));
    try {
      const { files } = await generateCorpus(path.join(ws.root, 'corpus'), { count: 3, seed: 15, pagesPerDoc: [1, 2] });
      const docIds: string[] = [];
      for (const file of files) {
        const r = await registerSource({ ...ports, prefix: ws.config.prefix }, {
          sourceKey: `file:${path.basename(file)}`,
          sourceUri: pathToFileURL(file).href,
          collector: 'test',
          bytes: new Uint8Array(await readFile(file)),
          meta: {},
          fetchedAt: new Date(),
        });
        docIds.push(r.docId);
      }
      const done = await waitForSettled(ports.status, { docIds, timeoutMs: 60_000, intervalMs: 50 });
      await waitForDrained(ports.queues, 30_000);
      expect(done.map((s) => s.state)).toEqual(['indexed', 'indexed', 'indexed']);

      // Per stage: "running" (which also checks the registration is current) and the hand-over
      // (timing + next stage queued, with what the stage recorded: page count, warnings,
      // coverage); upsert writes one more (indexed) and checks currency once more under the
      // document lock.
      const statusCalls = (calls.get('status.update') ?? 0) + (calls.get('status.isCurrent') ?? 0);
      expect(statusCalls).toBe(docIds.length * (STAGES.length * 2 + 1 + 1));
      expect(calls.get('store.ensureSchema')).toBe(1);
      // First ingests: nothing of an older version to delete, so no delete commit.
      expect(calls.get('store.deleteByDoc') ?? 0).toBe(0);

      for (const id of docIds) {
        const s = await ports.status.get(id);
        expect(Object.keys(s?.timings ?? {}).sort()).toEqual([...STAGES].sort());
        expect(s).toMatchObject({ state: 'indexed', progress: 100 });
        expect(await ports.store.countChunks({ op: 'eq', field: 'doc_id', value: id })).toBe(s?.chunkCount);
      }

      // A new version of one document: its old version's chunks are deleted, the others' kept.
      const [first] = files;
      const moved = path.join(ws.root, 'corpus', 'other.pdf');
      await writeFile(moved, await readFile(files[1] as string));
      const again = await registerSource({ ...ports, prefix: ws.config.prefix }, {
        sourceKey: `file:${path.basename(first as string)}`,
        sourceUri: pathToFileURL(moved).href,
        collector: 'test',
        bytes: new Uint8Array(await readFile(moved)),
        meta: {},
        fetchedAt: new Date(),
      });
      expect(again.docId).toBe(docIds[0]);
      await waitForSettled(ports.status, { docIds: [again.docId], timeoutMs: 60_000, intervalMs: 50 });
      await waitForDrained(ports.queues, 30_000);
      expect(calls.get('store.deleteByDoc')).toBe(1);
      const now = await ports.status.get(again.docId);
      expect(now).toMatchObject({ state: 'indexed', version: again.version });
      const left = await ports.store.countChunks({ op: 'eq', field: 'doc_id', value: again.docId });
      expect(left).toBe(now?.chunkCount);
      const ofNewVersion = { op: 'and' as const, args: [{ op: 'eq' as const, field: 'doc_id' as const, value: again.docId }, { op: 'eq' as const, field: 'version' as const, value: again.version }] };
      expect(await ports.store.countChunks(ofNewVersion)).toBe(left);
    } finally {
      await group.close(5_000);
      await ports.close();
    }
  }, 90_000);
});
