import { copyFile, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import type { WatchEvent } from '../../apps/watcher/local-watcher.ts';
import { docIdForSource } from '../../shared/domain/index.ts';
import { eq } from '../../shared/store/filter.ts';
import { generateCorpus, mutatePdf } from '../fixtures/corpus.ts';
import { queueTotals, settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const keyOf = (watchDir: string, file: string) => `dir:${file.slice(watchDir.length + 1)}`;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!REDIS_AVAILABLE)('ingestion spine: watched folder → queues → LanceDB', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let files: string[];
  const events: WatchEvent[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    ({ files } = await generateCorpus(ws.config.watchDir, { count: 20, seed: 11 }));
    service = await startPipeline(ws.config, { onWatchEvent: (e) => events.push(e) });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('20 PDFs dropped → every one indexed and searchable', async () => {
    const statuses = await settle(service, { count: 20, timeoutMs: 180_000 });
    expect(statuses).toHaveLength(20);
    expect(statuses.filter((s) => s.state !== 'indexed').map((s) => `${s.docId}: ${s.errorCode} ${s.errorMessage}`)).toEqual([]);
    for (const s of statuses) {
      expect(s.chunkCount).toBeGreaterThan(0);
      expect(await service.ports.store.countChunks(eq('doc_id', s.docId))).toBe(s.chunkCount);
      expect(Object.keys(s.timings).sort()).toEqual(['chunk', 'embed', 'enrich', 'extract', 'sectionize', 'upsert']);
    }
    // Searchable: a passage's own words find that passage among the top hits of a hybrid search.
    for (const s of statuses.slice(0, 5)) {
      const { chunks } = await service.ports.artifacts.getJson(s.docId, s.version, 'enriched.json');
      const target = chunks[chunks.length - 1]!;
      const probe = target.body;
      const [vector] = await service.ports.embedder.embed([probe]);
      const hits = await service.ports.store.hybrid({ text: probe, vector: vector!, alpha: 0.5, limit: 3 });
      expect(hits.map((h) => h.chunk.chunk_id)).toContain(target.chunk_id);
    }
  }, 200_000);

  it('the same files dropped again → zero new writes', async () => {
    const before = await service.ports.status.list();
    const totalsBefore = await queueTotals(service);
    const chunksBefore = await service.ports.store.countChunks();
    events.length = 0;
    for (const f of files) await writeFile(f, await readFile(f));
    await until('the watcher to see every rewrite', async () => events.filter((e) => e.kind === 'unchanged').length >= files.length);
    await service.watcher!.idle();
    expect(events.filter((e) => e.kind === 'registered')).toEqual([]);
    expect(await queueTotals(service)).toEqual(totalsBefore);
    expect(await service.ports.status.list()).toEqual(before);
    expect(await service.ports.store.countChunks()).toBe(chunksBefore);
  }, 90_000);

  it('a modified file → only the new version’s chunks remain', async () => {
    const file = files[0]!;
    const docId = docIdForSource(keyOf(ws.config.watchDir, file));
    const old = (await service.ports.status.get(docId))!;
    await mutatePdf(file);
    await until('the new version to register', async () => (await service.ports.status.get(docId))?.version !== old.version);
    const [now] = await settle(service, { docIds: [docId] });
    expect(now!.state).toBe('indexed');
    const stored = await service.ports.store.listChunkIds(docId);
    const { chunks } = await service.ports.artifacts.getJson(docId, now!.version, 'enriched.json');
    expect(stored.every((c) => c.version === now!.version)).toBe(true);
    expect(stored.map((c) => c.chunk_id).sort()).toEqual(chunks.map((c) => c.chunk_id).sort());
    expect((await service.ports.store.getDocument(docId))?.version).toBe(now!.version);
    expect(await service.ports.artifacts.listVersions(docId)).toEqual([now!.version]);
  }, 90_000);

  it('a deleted file → its document and chunks are gone', async () => {
    const file = files[1]!;
    const docId = docIdForSource(keyOf(ws.config.watchDir, file));
    expect(await service.ports.store.countChunks(eq('doc_id', docId))).toBeGreaterThan(0);
    await unlink(file);
    await until('the deletion', async () => (await service.ports.status.get(docId))?.state === 'deleted');
    expect(await service.ports.store.countChunks(eq('doc_id', docId))).toBe(0);
    expect(await service.ports.store.getDocument(docId)).toBeNull();
    expect(await service.ports.artifacts.listVersions(docId)).toEqual([]);
    // The other documents are untouched.
    expect((await service.ports.status.list()).filter((s) => s.state === 'indexed')).toHaveLength(19);
  }, 90_000);

  it('metadata from a JSONL manifest in the folder, and a bad sidecar, are honoured', async () => {
    const { watchDir } = ws.config;
    await writeFile(path.join(watchDir, 'batch.jsonl'), `${JSON.stringify({ path: 'from-manifest.pdf', doc_type: 'faq', jurisdiction: 'EU', valid_from: '2024-05-01' })}\n`);
    await new Promise((r) => setTimeout(r, 500)); // the watcher reloads the manifest
    await copyFile(files[2]!, path.join(watchDir, 'from-manifest.pdf'));
    const docId = docIdForSource('dir:from-manifest.pdf');
    await until('the manifest document', async () => (await service.ports.status.get(docId))?.state === 'indexed');
    const doc = await service.ports.store.getDocument(docId);
    expect(doc).toMatchObject({ doc_type: 'faq', jurisdiction: 'EU', valid_from: '2024-05-01' });

    events.length = 0;
    await writeFile(path.join(watchDir, 'bad.meta.json'), JSON.stringify({ valid_from: 'soon' }));
    await copyFile(files[3]!, path.join(watchDir, 'bad.pdf'));
    await until('the rejection', async () => events.some((e) => e.kind === 'rejected'));
    const rejected = events.find((e) => e.kind === 'rejected');
    expect(rejected).toMatchObject({ code: 'INVALID_METADATA' });
    expect(rejected && 'message' in rejected ? rejected.message : '').toMatch(/bad\.meta\.json: valid_from/);
    // `quarry status` shows it, with the reason.
    expect(await service.ports.status.get(docIdForSource('dir:bad.pdf'))).toMatchObject({ state: 'failed', errorCode: 'INVALID_METADATA' });
  }, 60_000);
});
