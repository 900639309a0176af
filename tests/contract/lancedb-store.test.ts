import * as lancedb from '@lancedb/lancedb';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { eq } from '../../shared/store/filter.ts';
import { keywordText } from '../../shared/store/keyword-text.ts';
import { createLanceDbStore } from '../../shared/store/lancedb/lancedb-store.ts';
import { withEmbedderCheck } from '../../shared/store/embedder-record.ts';
import { META_TABLE } from '../../shared/store/lancedb/embedder-table.ts';
import { FACET_VALUES_TABLE } from '../../shared/store/lancedb/facet-table.ts';
import { createSearchCaches, hybridSearch, vectorSideQuery } from '../../shared/store/lancedb/hybrid-search.ts';
import { CHUNKS_TABLE, DOC_ID_INDEX, DOCUMENTS_TABLE, FTS_INDEX, PAYLOAD_COLUMN, PROFILE_COLUMN, RECENT_TABLE, SCALAR_INDEXES, chunksToArrow } from '../../shared/store/lancedb/schema.ts';
import { HNSW_EF_CONSTRUCTION, VECTOR_INDEX } from '../../shared/store/lancedb/vector-index.ts';
import { classifyStoreError, withConflictRetry } from '../../shared/store/lancedb/write-guard.ts';
import { createVectorStore } from '../../shared/store/index.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { DIM, MODEL, OTHER_MODEL, DOC_A, DOC_B, VERSION, corpus, documents, makeChunk } from './store-fixtures.ts';
import { runVectorStoreContract } from './vector-store.contract.ts';
import { settlesWithin } from '../helpers/timing-asserts.ts';

const tempDir = tempDirs('quarry-lancedb-');

runVectorStoreContract('lancedb', async () => createLanceDbStore({ dir: tempDir() }));

/** What `read` finds in one table of the store, read as another process would. */
async function readTable<T>(dir: string, name: string, read: (table: lancedb.Table) => Promise<T>): Promise<T> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable(name);
  try {
    return await read(table);
  } finally {
    table.close();
    db.close();
  }
}

/** Stats of one index of the chunks table. */
const chunkIndexStats = (dir: string, index: string) => readTable(dir, CHUNKS_TABLE, (t) => t.indexStats(index));
const unindexedRows = async (dir: string) => (await chunkIndexStats(dir, FTS_INDEX))?.numUnindexedRows ?? -1;
const recentRows = (dir: string) => readTable(dir, RECENT_TABLE, (t) => t.countRows());
const recentUnindexedRows = async (dir: string) => (await readTable(dir, RECENT_TABLE, (t) => t.indexStats(FTS_INDEX)))?.numUnindexedRows ?? -1;
const vectorIndexSegments = async (dir: string) => (await chunkIndexStats(dir, VECTOR_INDEX))?.numIndices ?? 0;

function manyChunks(n: number, tag: string) {
  return Array.from({ length: n }, (_, i) =>
    makeChunk({ doc: DOC_B, version: VERSION.b1, section: tag, body: `${tag} passage ${i} 출산 장려금`, vector: [1, i, 0, 1] }),
  );
}

describe('lancedb adapter specifics', () => {
  it('a table another writer is still creating (its folder listed, no version committed) reads as absent, not as a failure', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir });
    mkdirSync(path.join(dir, `${CHUNKS_TABLE}.lance`), { recursive: true });
    expect(await (await lancedb.connect(dir)).tableNames()).toContain(CHUNKS_TABLE);
    expect(await store.countChunks(eq('doc_id', DOC_A))).toBe(0);
    await store.close();
  });

  it('rows the full-text index has not taken in are searched from the recent rows, best first; rows written around the store once a fold takes them in', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir, candidateFloor: 5 });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(manyChunks(120, 'early'));
    expect(await recentRows(dir)).toBe(120);
    await store.optimize();
    // The fold took every row into the chunks table's index and dropped the recent rows it covers.
    expect(await unindexedRows(dir)).toBe(0);
    expect(await recentRows(dir)).toBe(0);
    // Another process's row, its fold far off: only the recent rows hold it in an index. Older
    // indexed rows match the query too; the fresh, best-matching row must still come first.
    const writer = await createLanceDbStore({ dir, searchIdleAfterMs: 0, foldAfter: { rows: 1_000, ms: 600_000 } });
    const fresh = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'late', body: 'late passage 출산 장려금 late late', vector: [1, 0, 0, 1] });
    await writer.upsertChunks([fresh]);
    expect(await unindexedRows(dir)).toBe(1);
    const hits = await store.hybrid({ text: 'late passage 출산장려금', vector: [1, 0, 0, 0], alpha: 0, limit: 3 });
    expect(hits[0]?.chunk.chunk_id).toBe(fresh.chunk_id);
    // A row committed around the store has no recent row: the keyword side finds it once a fold
    // has taken it into the index (the vector side scans it at once).
    const stray = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'stray', body: 'stray wanderer', vector: [0, 0, 1, 1] });
    const db = await lancedb.connect(dir);
    const table = await db.openTable(CHUNKS_TABLE);
    await table.add(chunksToArrow([stray], DIM));
    const strayHits = (alpha: number) => store.hybrid({ text: 'stray wanderer', vector: [0, 0, 1, 1], alpha, limit: 3 });
    expect(await strayHits(0)).toHaveLength(0);
    expect((await strayHits(1))[0]?.chunk.chunk_id).toBe(stray.chunk_id);
    await store.optimize();
    expect((await strayHits(0))[0]?.chunk.chunk_id).toBe(stray.chunk_id);
    // A recent row whose chunk is gone (deleted around the store here) finds nothing.
    const gone = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'gone', body: 'vanishing ghost', vector: [0, 1, 1, 0] });
    await writer.upsertChunks([gone]);
    expect((await store.hybrid({ text: 'vanishing ghost', vector: [0, 1, 1, 0], alpha: 0, limit: 3 })).map((h) => h.chunk.chunk_id)).toEqual([gone.chunk_id]);
    await table.checkoutLatest();
    expect((await table.delete(`chunk_id = '${gone.chunk_id}'`)).numDeletedRows).toBe(1);
    expect(await recentRows(dir)).toBe(1);
    expect(await store.hybrid({ text: 'vanishing ghost', vector: [0, 1, 1, 0], alpha: 0, limit: 3 })).toEqual([]);
    table.close();
    db.close();
    await writer.close();
    await store.close();
  });

  it('an upsert returns once its rows are committed and searchable; the recent rows are indexed behind it, the chunks table once a fold is due, and before close', async () => {
    const dir = tempDir();
    // Refreshes a minute apart: the first one runs at once, the next waits (or for close). Never
    // search-idle, so every write asks for its refreshes (the search-idle case is the next test).
    const store = await createLanceDbStore({ dir, refreshPacing: { minIntervalMs: 60_000, maxShare: 1 }, searchIdleAfterMs: 0, foldAfter: { rows: 30, ms: 600_000 } });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(manyChunks(20, 'early'));
    // 20 rows, no fold due: the recent rows' index takes them in, the chunks table's does not yet.
    await vi.waitFor(async () => expect(await recentUnindexedRows(dir)).toBe(0), { timeout: 20_000, interval: 50 });
    expect(await unindexedRows(dir)).toBe(20);
    // Concurrent writers, the next recent refresh a minute away: every row is searchable as the upserts return.
    await Promise.all([store.upsertChunks(manyChunks(7, 'p')), store.upsertChunks(manyChunks(9, 'q')), store.upsertChunks(manyChunks(3, 'r'))]);
    expect(await store.hybrid({ text: 'q passage', vector: [1, 0, 0, 0], alpha: 0, limit: 500 })).toHaveLength(9 + 7 + 3 + 20);
    // Past 30 rows since the last fold: one runs.
    await vi.waitFor(async () => expect(await unindexedRows(dir)).toBeLessThan(20), { timeout: 20_000, interval: 50 });
    // Closing runs what is pending instead of waiting out its pacing (a minute: the hang guard is
    // below it), and folds what this process wrote since its last fold.
    await store.upsertChunks(manyChunks(2, 's'));
    await settlesWithin(store.close(), 45_000, 'closing with a refresh paced a minute away');
    expect(await unindexedRows(dir)).toBe(0);
    expect(await recentRows(dir)).toBe(0);
    // maintain() folds in what a refresh has not (another writer's rows here).
    const reopened = await createLanceDbStore({ dir });
    const db = await lancedb.connect(dir);
    const table = await db.openTable(CHUNKS_TABLE);
    await table.add(chunksToArrow(manyChunks(4, 't'), DIM));
    expect(await unindexedRows(dir)).toBe(4);
    await reopened.maintain();
    expect(await unindexedRows(dir)).toBe(0);
    table.close();
    db.close();
    await reopened.close();
  });

  it('a store nobody searched leaves new rows unindexed until a search asks for the fold', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(manyChunks(20, 'early'));
    await store.upsertChunks(manyChunks(6, 'late'));
    expect(await recentUnindexedRows(dir)).toBe(26);
    // Searchable at once, by the scan of the recent rows; the search records itself and asks for the deferred fold.
    expect(await store.hybrid({ text: 'late passage', vector: [1, 0, 0, 0], alpha: 0, limit: 500 })).toHaveLength(26);
    // The fold indexes the chunks table, then drops the recent rows it covers: two commits, so both are waited for.
    await vi.waitFor(async () => expect([await unindexedRows(dir), await recentRows(dir)]).toEqual([0, 0]), { timeout: 20_000, interval: 50 });
    // Another process on the directory sees the search: its writes' recent rows are indexed behind them.
    const other = await createLanceDbStore({ dir });
    await other.upsertChunks(manyChunks(3, 'other'));
    await vi.waitFor(async () => expect(await recentUnindexedRows(dir)).toBe(0), { timeout: 20_000, interval: 50 });
    expect(await store.hybrid({ text: 'other passage', vector: [1, 0, 0, 0], alpha: 0, limit: 500 })).toHaveLength(29);
    await other.close();
    expect(await unindexedRows(dir)).toBe(0);
    await store.close();
  });

  it('filters are pre-filters on both sides (a selective filter still fills the limit)', async () => {
    const store = await createLanceDbStore({ dir: tempDir(), candidateFloor: 3 });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const noise = Array.from({ length: 200 }, (_, i) =>
      makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'noise', body: `cookie cookie cookie ${i}`, vector: [0, 0, 1, 0] }),
    );
    const wanted = Array.from({ length: 4 }, (_, i) =>
      makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'wanted', body: `a cookie among many words here ${i}`, vector: [0, 1, 1, 0] }),
    );
    await store.upsertChunks([...noise, ...wanted]);
    await store.optimize(); // the indexed path too, not only the flat scan of fresh rows
    for (const alpha of [0, 1]) {
      const hits = await store.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha, limit: 3, filter: eq('section', 'wanted') });
      expect(hits.map((h) => h.chunk.section)).toEqual(['wanted', 'wanted', 'wanted']);
    }
    await store.close();
  });

  it('optimize() can run at any time and keeps every row searchable', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(manyChunks(5, 'x'));
    await store.optimize();
    await store.optimize();
    expect(await unindexedRows(dir)).toBe(0);
    expect(await store.hybrid({ text: 'x passage', vector: [1, 0, 0, 0], alpha: 0, limit: 10 })).toHaveLength(5);
    await store.close();
  });

  it('maintain() indexes the vectors once the store is large enough, and rebuilds an index writes have fragmented', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir, vectorIndex: { minRows: 300, maxSegments: 2 } });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const spread = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => makeChunk({ doc: DOC_B, version: VERSION.b1, section: tag, body: `${tag} passage ${i}`, vector: [Math.cos(i), Math.sin(i), (i % 7) / 7, 1] }));
    await store.upsertChunks(spread(200, 'a'));
    expect(await store.maintain()).toMatchObject({ vectorIndex: 'exact' });
    await store.upsertChunks(spread(200, 'b'));
    const q = { text: '', vector: [0.3, 0.9, 0.5, 1], alpha: 1, limit: 20 };
    // Exact cosines of every chunk, before there is an index.
    const exactCosine = new Map((await store.hybrid({ ...q, limit: 400 })).map((h) => [h.chunk.chunk_id, h.cosine]));
    const exact = (await store.hybrid(q)).map((h) => h.chunk.chunk_id);
    const built = await store.maintain();
    expect(built).toMatchObject({ vectorIndex: 'built' });
    expect(built.reason).toContain('400 chunks');
    expect(await vectorIndexSegments(dir)).toBe(1);
    // The index is approximate: on a corpus this small it finds nearly every exact neighbour (every
    // vector here has a twin, and a graph may leave one of two equal vectors unreachable, depending
    // on how the build's threads interleaved: 17 and 18 of 20 have both been seen), and the refine
    // step keeps every cosine exact. A broken index would find about one of the 20.
    const indexed = await store.hybrid(q);
    expect(indexed.filter((h) => exact.includes(h.chunk.chunk_id)).length).toBeGreaterThanOrEqual(16);
    for (const h of indexed) expect(h.cosine).toBeCloseTo(exactCosine.get(h.chunk.chunk_id) as number, 5);
    expect(await store.maintain()).toMatchObject({ vectorIndex: 'current' });
    // A written row is searchable at once; each refresh adds the rows written since as one more
    // index segment.
    const late = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'late', body: 'late passage', vector: [0.3, 0.9, 0.5, 1] });
    await store.upsertChunks([late]);
    expect((await store.hybrid(q))[0]?.chunk.chunk_id).toBe(late.chunk_id);
    await store.optimize();
    for (const tag of ['c', 'd']) {
      await store.upsertChunks(spread(10, tag));
      await store.optimize();
    }
    expect(await vectorIndexSegments(dir)).toBeGreaterThan(2);
    expect(await store.maintain()).toMatchObject({ vectorIndex: 'rebuilt' });
    expect(await vectorIndexSegments(dir)).toBe(1);
    expect((await store.hybrid(q))[0]?.chunk.chunk_id).toBe(late.chunk_id);
    expect(await store.countChunks()).toBe(421);
    await store.close();
  });

  it('maintain() rebuilds a vector index an older Quarry built with a weaker graph', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir, vectorIndex: { minRows: 300, maxSegments: 8 } });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(Array.from({ length: 320 }, (_, i) => makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'old', body: `old passage ${i}`, vector: [Math.cos(i), Math.sin(i), 1, 0] })));
    const withTable = <T>(fn: (table: lancedb.Table) => Promise<T>): Promise<T> => readTable(dir, CHUNKS_TABLE, fn);
    const efConstruction = () => withTable(async (t) => (await t.listIndices()).find((i) => i.name === VECTOR_INDEX)?.indexDetails?.hnsw?.construction_ef);
    // As the older build did: LanceDB's default graph.
    await withTable((t) => t.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine' }), name: VECTOR_INDEX }));
    expect(await efConstruction()).toBe(300);
    expect(await store.maintain()).toMatchObject({ vectorIndex: 'rebuilt', reason: `graph built with efConstruction 300 < ${HNSW_EF_CONSTRUCTION}: rebuild` });
    expect(await efConstruction()).toBe(HNSW_EF_CONSTRUCTION);
    expect(await store.maintain()).toMatchObject({ vectorIndex: 'current' });
    await store.close();
  });

  it('filters read the scalar indexes; a narrow filter is scanned exactly, a wide one goes through the vector index', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir, vectorIndex: { minRows: 300, maxSegments: 2 }, flatSearchCutoff: 100 });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const rows = (n: number, doc: typeof DOC_A | typeof DOC_B, version: string, section: string) =>
      Array.from({ length: n }, (_, i) => makeChunk({ doc, version, section, body: `${section} passage ${i}`, vector: [Math.cos(i), Math.sin(i), 1, 0] }));
    // DOC_A's chunks are Korean, DOC_B's English.
    await store.upsertChunks([...rows(350, DOC_B, VERSION.b1, 'en'), ...rows(50, DOC_A, VERSION.a1, 'ko')]);
    expect(await store.maintain()).toMatchObject({ vectorIndex: 'built' });
    const db = await lancedb.connect(dir);
    const table = await db.openTable(CHUNKS_TABLE);
    const plan = async (where: string) =>
      (await vectorSideQuery(table, { vector: [1, 0, 1, 0], where, candidates: 10, flatSearchCutoff: 100 })).explainPlan();
    const narrow = await plan("lang = 'ko'");
    expect(narrow).toContain('KNNVectorDistance');
    expect(narrow).not.toContain('ANNSubIndex');
    expect(narrow).toContain('@lang_idx(Bitmap)');
    const wide = await plan("lang = 'en' AND section = 'en'");
    expect(wide).toContain('ANNSubIndex');
    expect(wide).toContain('@section_idx(BTree)');
    // A few documents' chunks (a question naming them, the answerer's table search): the exact scan
    // reads only their rows, found through the doc_id B-tree.
    const named = await plan(`doc_id IN ('${DOC_A}')`);
    expect(named).toContain('KNNVectorDistance');
    expect(named).toContain('@doc_id_idx(BTree)');
    // A count read at an earlier version still decides (see FLAT_CHOICE_COUNT_MS): a wide filter
    // remembered as narrow is scanned exactly, and a filter counted once is remembered.
    const caches = createSearchCaches();
    const counts = { version: caches.at(await table.version()).counts, flatChoice: caches.flatChoiceCounts };
    caches.flatChoiceCounts.set("lang = 'en'", 40);
    const remembered = await (await vectorSideQuery(table, { vector: [1, 0, 1, 0], where: "lang = 'en'", candidates: 10, flatSearchCutoff: 100 }, counts)).explainPlan();
    expect(remembered).not.toContain('ANNSubIndex');
    await vectorSideQuery(table, { vector: [1, 0, 1, 0], where: "section = 'ko'", candidates: 10, flatSearchCutoff: 100 }, counts);
    expect(caches.flatChoiceCounts.get("section = 'ko'")).toBe(50);
    table.close();
    db.close();
    // Either way the search finds the same rows the filter allows.
    const ko = await store.hybrid({ text: '', vector: [1, 0, 1, 0], alpha: 1, filter: eq('lang', 'ko'), limit: 5 });
    expect(ko.map((h) => h.chunk.lang)).toEqual(['ko', 'ko', 'ko', 'ko', 'ko']);
    // Counts are remembered per table version: a write is counted at once.
    expect(await store.countChunks(eq('section', 'ko'))).toBe(50);
    await store.upsertChunks(rows(60, DOC_A, VERSION.a1, 'ko'));
    expect(await store.countChunks(eq('section', 'ko'))).toBe(60);
    await store.close();
  });

  it('a store made before the payload column and the filter indexes gains them; its rows read the same before and after', async () => {
    const dir = tempDir();
    const q = { text: '출산 장려금 passage', vector: [1, 0.5, 0, 1], alpha: 0.5, limit: 10, withVectors: true };
    const first = await createLanceDbStore({ dir });
    await first.ensureSchema({ dimension: DIM, model: MODEL });
    await first.upsertChunks([...Object.values(corpus()), ...manyChunks(5, 'p')]);
    const before = await first.hybrid(q);
    await first.close();
    // Take the store back to before: no payload column, no filter indexes.
    const db = await lancedb.connect(dir);
    const table = await db.openTable(CHUNKS_TABLE);
    await table.dropColumns([PAYLOAD_COLUMN]);
    for (const index of SCALAR_INDEXES.filter((i) => i.column !== 'chunk_id')) await table.dropIndex(index.name);
    expect((await table.listIndices()).map((i) => i.name).sort()).toEqual([FTS_INDEX, 'chunk_id_idx'].sort());

    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await table.checkoutLatest();
    expect((await table.listIndices()).map((i) => i.name)).toEqual(expect.arrayContaining(SCALAR_INDEXES.map((i) => i.name)));
    expect(await table.countRows(`${PAYLOAD_COLUMN} IS NULL`)).toBe(11);
    // Old rows come from their columns, exactly as they came from their payload.
    expect(await store.hybrid(q)).toEqual(before);
    const fresh = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'fresh', body: '출산 장려금 passage fresh', vector: [1, 0.5, 0, 1] });
    await store.upsertChunks([fresh]);
    // Folded, so every row is scored by the one index's statistics, as `before` was.
    await store.optimize();
    await table.checkoutLatest();
    expect(await table.countRows(`${PAYLOAD_COLUMN} IS NULL`)).toBe(11);
    const after = await store.hybrid(q);
    const { vector: _vector, ...freshFields } = fresh;
    expect(after.find((h) => h.chunk.chunk_id === fresh.chunk_id)?.chunk).toEqual(freshFields);
    expect(after.filter((h) => h.chunk.chunk_id !== fresh.chunk_id).map((h) => h.chunk)).toEqual(
      before.map((h) => h.chunk).filter((c) => after.some((h) => h.chunk.chunk_id === c.chunk_id)),
    );
    table.close();
    db.close();
    await store.close();
  });

  it('a documents table made before profiles gains the profile column; old rows read without a profile, new ones with', async () => {
    const dir = tempDir();
    const first = await createLanceDbStore({ dir });
    await first.ensureSchema({ dimension: DIM, model: MODEL });
    const { a, b } = documents();
    const { profile: _profile, ...bWithout } = b;
    await first.upsertDocuments([a, bWithout]);
    await first.close();
    const db = await lancedb.connect(dir);
    const table = await db.openTable(DOCUMENTS_TABLE);
    await table.dropColumns([PROFILE_COLUMN]);
    expect((await table.schema()).fields.map((f) => f.name)).not.toContain(PROFILE_COLUMN);

    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await table.checkoutLatest();
    expect((await table.schema()).fields.map((f) => f.name)).toContain(PROFILE_COLUMN);
    expect(await store.getDocument(DOC_B)).toEqual(bWithout);
    await store.upsertDocuments([b]);
    expect(await store.getDocument(DOC_B)).toEqual(b);
    table.close();
    db.close();
    await store.close();
  });

  it('documents are looked up through a doc_id index; maintain() compacts what one upsert per document adds and indexes it', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const { a, b } = documents();
    for (const doc of [a, b, { ...a, doc_id: 'third-doc-0003', title: 'Third' }]) await store.upsertDocuments([doc]);
    const db = await lancedb.connect(dir);
    const table = await db.openTable(DOCUMENTS_TABLE);
    expect((await table.indexStats(DOC_ID_INDEX))?.numUnindexedRows).toBe(3);
    await store.maintain();
    await table.checkoutLatest();
    expect((await table.indexStats(DOC_ID_INDEX))?.numUnindexedRows).toBe(0);
    expect(await table.query().where("doc_id = 'third-doc-0003'").explainPlan()).toContain('@doc_id_idx(BTree)');
    expect((await table.stats()).fragmentStats.numFragments).toBe(1);
    expect((await store.getDocument('third-doc-0003'))?.title).toBe('Third');
    expect(await store.getDocument(b.doc_id)).toEqual(b);
    table.close();
    db.close();
    await store.close();
  });

  it('searches remember rows per table version: a caller cannot change what the next search returns, a write can', async () => {
    const store = await createLanceDbStore({ dir: tempDir() });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const chunks = Object.values(corpus());
    await store.upsertChunks(chunks);
    const q = { text: '출산 장려금', vector: [1, 0.5, 0, 1], alpha: 0.5, limit: 5, withVectors: true };
    const first = await store.hybrid(q);
    const expected = structuredClone(first);
    for (const h of first) {
      h.chunk.entities.push('changed by the caller');
      h.chunk.body = 'changed';
      h.vector?.fill(9);
    }
    expect(await store.hybrid(q)).toEqual(expected);
    const top = chunks.find((c) => c.chunk_id === expected[0]!.chunk.chunk_id)!;
    await store.upsertChunks([{ ...top, page_start: 41, page_end: 42 }]);
    const after = await store.hybrid(q);
    expect(after.find((h) => h.chunk.chunk_id === top.chunk_id)?.chunk).toMatchObject({ page_start: 41, page_end: 42 });
    await store.close();
  });

  it('a compaction between a search and its row reads moves every row: the search runs again and loses nothing', async () => {
    const dir = tempDir();
    // No background refresh after the first write's (the next waits a minute; never search-idle, so
    // the first write's refresh is not deferred to the search): only the compaction below commits
    // during the search.
    const store = await createLanceDbStore({ dir, refreshPacing: { minIntervalMs: 60_000, maxShare: 1 }, searchIdleAfterMs: 0 });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    // Three writes, three fragments. The first, which the refresh after it indexed, matches nothing
    // searched below (LanceDB 0.39 compacts indexed and unindexed fragments apart); the compaction
    // below merges the other two, so every row found moves.
    await store.upsertChunks(
      Array.from({ length: 40 }, (_, i) => makeChunk({ doc: DOC_A, version: VERSION.a1, section: 'filler', body: `unrelated filler ${i}`, vector: [0, 0, 1, 0] })),
    );
    for (const tag of ['b', 'c']) await store.upsertChunks(manyChunks(40, tag));
    const q = { text: 'passage 출산 장려금', vector: [1, 3, 0, 1], alpha: 0.5, limit: 30 };
    expect(await store.hybrid(q)).toHaveLength(30);

    // Another process's handle; its first row read waits for a compaction committed by the store.
    const db = await lancedb.connect(dir, { readConsistencyInterval: 0 });
    const table = await db.openTable(CHUNKS_TABLE);
    const reads: bigint[][] = [];
    const racing = new Proxy(table, {
      get(target, prop, receiver) {
        if (prop !== 'takeRowIds') return Reflect.get(target, prop, receiver);
        return (rowIds: bigint[]) => {
          let columns: string[] = [];
          const take = {
            withRowId: () => take,
            select: (c: string[]) => ((columns = c), take),
            toArray: async () => {
              reads.push(rowIds);
              if (reads.length === 1) await store.optimize();
              return target.takeRowIds(rowIds).withRowId().select(columns).toArray();
            },
          };
          return take;
        };
      },
    });
    const hits = await hybridSearch(racing, { text: q.text, vector: q.vector, alpha: q.alpha, where: undefined, limit: q.limit, candidates: 100, flatSearchCutoff: 100 });
    // The first attempt's addresses were all gone after the compaction; the second found the rows,
    // as a search of the compacted table does (rows a background refresh had not indexed before
    // it are scored from the index now, so a search before the compaction may differ).
    expect(reads.length).toBe(2);
    expect(reads[1]!.some((a) => reads[0]!.includes(a))).toBe(false);
    expect(hits).toEqual(await store.hybrid(q));
    table.close();
    db.close();
    await store.close();
  });

  it('persists across reopen, and a second instance (another process) sees writes at once', async () => {
    const dir = tempDir();
    const a = await createVectorStore({ kind: 'lancedb', dir });
    const b = await createVectorStore({ kind: 'lancedb', dir });
    expect(await b.dimension()).toBeNull();
    await a.ensureSchema({ dimension: DIM, model: MODEL });
    expect(await b.dimension()).toBe(DIM);
    await a.upsertChunks(Object.values(corpus()));
    expect(await b.countChunks()).toBe(6);
    // Two instances write concurrently: no in-process lock between them, so Lance's optimistic
    // commits conflict and the adapter's retry must absorb it.
    await Promise.all([
      ...[0, 1, 2].map((i) => a.upsertChunks(manyChunks(10, `a${i}`))),
      ...[0, 1, 2].map((i) => b.upsertChunks(manyChunks(10, `b${i}`))),
      b.deleteByDoc('nothing-here'),
    ]);
    expect(await a.countChunks()).toBe(66);
    await a.close();
    await b.close();
    const reopened = await createLanceDbStore({ dir });
    expect(await reopened.dimension()).toBe(DIM);
    expect(await reopened.countChunks(eq('section', 'b2'))).toBe(10);
    await reopened.close();
  });


  it("counts a document's chunks exactly across its own commits (carried, no scan), another instance's and deletes", async () => {
    const dir = tempDir();
    const a = await createLanceDbStore({ dir });
    const b = await createLanceDbStore({ dir });
    await a.ensureSchema({ dimension: DIM, model: MODEL });
    const chunks = (doc: typeof DOC_A | typeof DOC_B, version: string, tag: string, n: number) =>
      Array.from({ length: n }, (_, i) => makeChunk({ doc, version, section: tag, body: `${tag} passage ${i}`, vector: [1, i, 0, 1] }));
    const count = (s: typeof a, doc: string) => s.countChunks(eq('doc_id', doc));
    // The first chunk commit builds the full-text index (a commit of its own): counts settle after
    // it. More rows than a search's default limit: the scan that rebuilds the counts reads them all.
    await a.upsertChunks(chunks(DOC_B, VERSION.b1, 'seed', 25));
    for (let i = 0; i < 3; i++) expect(await count(a, DOC_A)).toBe(0);
    const first = chunks(DOC_A, VERSION.a1, 'one', 3);
    await a.upsertChunks(first);
    expect(await count(a, DOC_A)).toBe(3);
    // Two of the same ids again: still three, not two.
    await a.upsertChunks(first.slice(0, 2));
    expect(await count(a, DOC_A)).toBe(3);
    // Another instance commits, then this one: its own commit must not carry counts over the other's.
    await b.upsertChunks(chunks(DOC_B, VERSION.b1, 'other', 4));
    await a.upsertChunks(chunks(DOC_A, VERSION.a2, 'two', 2));
    expect(await count(a, DOC_B)).toBe(29);
    expect(await count(a, DOC_A)).toBe(5);
    await a.deleteByDoc(DOC_A, { exceptVersion: VERSION.a2 });
    expect(await count(a, DOC_A)).toBe(2);
    await b.deleteByDoc(DOC_A);
    expect(await count(a, DOC_A)).toBe(0);
    await a.upsertChunks(first);
    expect(await count(a, DOC_A)).toBe(3);
    await a.deleteByDoc(DOC_A);
    expect(await count(a, DOC_A)).toBe(0);
    expect(await count(b, DOC_B)).toBe(29);
    await a.close();
    await b.close();
  });

  it("with a search lag, searches see another process's writes only after the lag, their own at once; counts and reads by id never lag", async () => {
    const dir = tempDir();
    const writer = await createLanceDbStore({ dir });
    await writer.ensureSchema({ dimension: DIM, model: MODEL });
    await writer.upsertChunks(manyChunks(3, 'first'));
    const lagging = await createLanceDbStore({ dir, searchLagMs: 60_000 });
    // Keyword-only searches for each write's marker word; none is a stop word of LanceDB's English
    // list (which holds "own" and "other": a search for one finds nothing, lag or not).
    const q = (text: string) => ({ text, vector: [1, 0, 0, 1], alpha: 0, limit: 50 });
    expect(await lagging.hybrid(q('first'))).toHaveLength(3);
    const other = manyChunks(4, 'remote');
    await writer.upsertChunks(other);
    // Searches stay on the version they read (for up to a minute here)…
    expect(await lagging.hybrid(q('remote'))).toHaveLength(0);
    expect(await lagging.aggregate({ groupBy: 'section' })).toEqual([{ value: 'first', count: 3 }]);
    expect(await lagging.countChunks(eq('section', 'remote'), { asSearched: true })).toBe(0);
    // …what a writer decides on does not.
    expect(await lagging.countChunks(eq('section', 'remote'))).toBe(4);
    expect((await lagging.fetchByIds(other.map((c) => c.chunk_id))).map((c) => c.chunk_id)).toEqual(other.map((c) => c.chunk_id));
    // Its own write is searchable at once, and brings the other process's with it.
    await lagging.upsertChunks(manyChunks(2, 'local'));
    expect(await lagging.hybrid(q('local'))).toHaveLength(2);
    expect(await lagging.hybrid(q('remote'))).toHaveLength(4);
    // So is its own delete.
    await lagging.deleteByDoc(DOC_B);
    expect(await lagging.hybrid(q('passage'))).toHaveLength(0);
    await expect(createLanceDbStore({ dir, searchLagMs: -1 })).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    await expect(createLanceDbStore({ dir, refreshPacing: { minIntervalMs: 0, maxShare: 0 } })).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    await expect(createLanceDbStore({ dir, foldAfter: { rows: 0, ms: 1_000 } })).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    await expect(createLanceDbStore({ dir, foldAfter: { rows: 10, ms: -1 } })).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    // Without a lag (the store's default), the other process's write is searchable at once.
    const fresh = await createLanceDbStore({ dir });
    await writer.upsertChunks(manyChunks(5, 'late'));
    expect(await fresh.hybrid(q('late'))).toHaveLength(5);
    await Promise.all([writer.close(), lagging.close(), fresh.close()]);
  });
  it('a store made before facet_values existed gains it on ensureSchema; other instances see facet writes', async () => {
    const dir = tempDir();
    const old = await createLanceDbStore({ dir });
    await old.ensureSchema({ dimension: DIM, model: MODEL });
    await old.upsertChunks(Object.values(corpus()));
    await old.close();
    const db = await lancedb.connect(dir);
    await db.dropTable(FACET_VALUES_TABLE);
    db.close();

    const a = await createLanceDbStore({ dir });
    const b = await createLanceDbStore({ dir });
    expect(await a.listFacetValues()).toEqual([]);
    const row = { facet: 'lang' as const, value: 'ko', aliases: [], description: 'd', sample_count: 3, updated_at: '2025-01-01T00:00:00.000Z', vector: [0, 1, 0, 0] };
    expect(await a.upsertFacetValues([row]).catch((e: unknown) => (e as PermanentError).code)).toBe('STORE_REJECTED');
    await a.ensureSchema({ dimension: DIM, model: MODEL });
    await a.upsertFacetValues([row]);
    expect((await b.listFacetValues('lang')).map((r) => r.value)).toEqual(['ko']);
    expect(await b.countChunks()).toBe(6);
    await a.close();
    await b.close();
  });

  it('records the embedder in store_meta: another instance reopens with it, refuses another, and the record survives optimize()', async () => {
    const dir = tempDir();
    const first = await createLanceDbStore({ dir });
    await first.ensureSchema({ dimension: DIM, model: MODEL });
    await first.upsertChunks(Object.values(corpus()));
    await first.optimize();
    await first.close();
    const again = await createLanceDbStore({ dir });
    expect(await again.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });
    await again.ensureSchema({ dimension: DIM, model: MODEL });
    const err = await again.ensureSchema({ dimension: DIM, model: OTHER_MODEL }).catch((e: unknown) => e as PermanentError);
    expect(err).toMatchObject({ code: 'EMBEDDER_MISMATCH' });
    expect((err as PermanentError).message).toContain(`LanceDB at ${dir}`);
    expect(await again.countChunks()).toBe(6);
    await again.close();
  });

  it('a store made before the record: empty, it records the model; holding chunks, it stays unknown and searches warn once', async () => {
    const dropMeta = async (dir: string) => {
      const db = await lancedb.connect(dir);
      await db.dropTable(META_TABLE);
      db.close();
    };
    const emptyDir = tempDir();
    const empty = await createLanceDbStore({ dir: emptyDir });
    await empty.ensureSchema({ dimension: DIM, model: OTHER_MODEL });
    await empty.close();
    await dropMeta(emptyDir);
    const emptyAgain = await createLanceDbStore({ dir: emptyDir });
    expect(await emptyAgain.embedderRecord()).toBeNull();
    await emptyAgain.ensureSchema({ dimension: DIM, model: MODEL });
    expect(await emptyAgain.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });
    await emptyAgain.close();

    const dir = tempDir();
    const old = await createLanceDbStore({ dir });
    await old.ensureSchema({ dimension: DIM, model: OTHER_MODEL });
    await old.upsertChunks(Object.values(corpus()));
    await old.close();
    await dropMeta(dir);
    const legacy = await createLanceDbStore({ dir });
    await legacy.ensureSchema({ dimension: DIM, model: MODEL });
    expect(await legacy.embedderRecord()).toBeNull();
    const warnings: string[] = [];
    const checked = withEmbedderCheck(legacy, { model: MODEL, where: dir, warn: (m) => warnings.push(m) });
    await checked.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha: 0.5, limit: 3 });
    await checked.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha: 0.5, limit: 3 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^STORE_EMBEDDER_UNKNOWN: .*test-embedder\/d4.*--force/);
    await legacy.close();
  });

  it('a closed store refuses work', async () => {
    const store = await createLanceDbStore({ dir: tempDir() });
    await store.close();
    await store.close();
    const err = await store.countChunks().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
  });
});

describe('keywordText', () => {
  it('turns Hangul runs into spacing-independent bigrams and keeps Latin words', () => {
    expect(keywordText('출산 장려금')).toBe('출산 산장 장려 려금');
    expect(keywordText('출산장려금')).toBe(keywordText('출산 장려금'));
    expect(keywordText('제3조(지원 대상) Cookie-Header ＡＢＣ')).toBe('제 3 조 지원 원대 대상 cookie header abc');
    expect(keywordText('  ,. ')).toBe('');
  });
});

describe('store error classification', () => {
  it('retries commit conflicts and classifies the rest', async () => {
    let calls = 0;
    const value = await withConflictRetry('t', async () => {
      calls += 1;
      if (calls < 3) throw new Error('Retryable commit conflict for version 7');
      return 'ok';
    }, { baseDelayMs: 1 });
    expect([value, calls]).toEqual(['ok', 3]);
    const exhausted = await withConflictRetry('t', async () => {
      throw new Error('Commit conflict for version 3');
    }, { retries: 1, baseDelayMs: 1 }).catch((e: unknown) => e);
    expect(exhausted).toBeInstanceOf(RetryableError);
    expect((exhausted as RetryableError).code).toBe('STORE_UNAVAILABLE');
    expect(classifyStoreError(new Error('Invalid user input: Received literal Utf8'), 'q').code).toBe('STORE_REJECTED');
    expect(classifyStoreError(new Error('LanceError(IO): No such file or directory'), 'q')).toBeInstanceOf(RetryableError);
  });
});
