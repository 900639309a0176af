/**
 * The Weaviate adapter's own logic against an in-memory stand-in of the client (see
 * tests/helpers/fake-weaviate.ts). What the server itself does is covered by the contract suite
 * on a live Weaviate (tests/contract/weaviate-store.test.ts, when WEAVIATE_URL is set).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { and, eq, or } from '../../shared/store/filter.ts';
import type { VectorStore } from '../../shared/store/vector-store.ts';
import { createWeaviateStore } from '../../shared/store/weaviate/weaviate-store.ts';
import { DIM, MODEL, OTHER_MODEL, DOC_A, VERSION, corpus, documents } from '../contract/store-fixtures.ts';
import { createFakeWeaviate, type FakeWeaviate } from '../helpers/fake-weaviate.ts';

let fake: FakeWeaviate;
let store: VectorStore;
const open = (opts: Partial<Parameters<typeof createWeaviateStore>[0]> = {}) =>
  createWeaviateStore({ url: 'http://127.0.0.1:8080', collectionPrefix: 'Q', ...opts }, async () => fake.client);
const calls = (method: string) => fake.calls.filter((c) => c.method === method);

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(() => { throw new Error('expected a rejection'); }, (e: Error) => e);
}

beforeEach(async () => {
  fake = createFakeWeaviate();
  store = await open();
});

describe('ensureSchema', () => {
  it('creates the three collections once, records the dimension, and is idempotent', async () => {
    expect(await store.dimension()).toBeNull();
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    expect(calls('create').map((c) => c.collection)).toEqual(['QDocument', 'QChunk', 'QFacetValueVector']);
    expect(await store.dimension()).toBe(DIM);
    // A new process finds the schema the first one made.
    expect(await (await open()).dimension()).toBe(DIM);
  });

  it('refuses another dimension', async () => {
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const err = await rejection((await open()).ensureSchema({ dimension: DIM * 2, model: MODEL }));
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe('DIMENSION_MISMATCH');
  });

  it('records the embedder in the Chunk description; a new process reopens with it and refuses another', async () => {
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    expect(fake.collections.get('QChunk')?.config.description).toContain(JSON.stringify(MODEL));
    expect(await store.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });
    const again = await open();
    expect(await again.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });
    await again.ensureSchema({ dimension: DIM, model: MODEL });
    const before = fake.calls.length;
    const err = await rejection((await open()).ensureSchema({ dimension: DIM, model: OTHER_MODEL }));
    expect((err as PermanentError).code).toBe('EMBEDDER_MISMATCH');
    expect(err.message).toContain(MODEL);
    expect(err.message).toContain(OTHER_MODEL);
    expect(err.message).toContain('QChunk');
    // Refused before anything was created, added or rewritten.
    expect(fake.calls.slice(before).map((c) => c.method).filter((m) => m === 'create' || m === 'updateConfig')).toEqual([]);
  });

  it('a collection made before the record gains it while empty, and stays unknown once it holds chunks', async () => {
    const legacyDescription = 'Quarry chunks (passages with section paths, pages, validity dates); vector dimension 4';
    await store.ensureSchema({ dimension: DIM, model: OTHER_MODEL });
    fake.collections.get('QChunk')!.config.description = legacyDescription;
    const empty = await open();
    expect(await empty.embedderRecord()).toBeNull();
    await empty.ensureSchema({ dimension: DIM, model: MODEL });
    expect(calls('updateConfig')).toHaveLength(1);
    expect(await empty.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });

    await empty.upsertChunks([corpus().a1]);
    fake.collections.get('QChunk')!.config.description = legacyDescription;
    const legacy = await open();
    await legacy.ensureSchema({ dimension: DIM, model: OTHER_MODEL });
    expect(calls('updateConfig')).toHaveLength(1);
    expect(await legacy.embedderRecord()).toBeNull();
    expect(fake.collections.get('QChunk')!.config.description).toBe(legacyDescription);
  });

  it('falls back to trigram for body when the server has no kagome_kr', async () => {
    fake.refuseCreate = (config) =>
      JSON.stringify(config.properties).includes('kagome_kr') ? "tokenization 'kagome_kr' is not enabled: set ENABLE_TOKENIZER_KAGOME_KR" : null;
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const body = fake.collections.get('QChunk')?.config.properties.find((p) => p.name === 'body');
    expect(body).toMatchObject({ tokenization: 'trigram' });
  });

  it('does not fall back when kagome_kr was asked for explicitly', async () => {
    fake.refuseCreate = (config) => (JSON.stringify(config.properties).includes('kagome_kr') ? 'kagome_kr is not enabled' : null);
    const strict = await open({ bodyTokenization: 'kagome_kr' });
    expect(await rejection(strict.ensureSchema({ dimension: DIM, model: MODEL }))).toBeInstanceOf(PermanentError);
  });

  it('reports every way an existing collection differs', async () => {
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const chunk = fake.collections.get('QChunk')!;
    chunk.config.invertedIndex.indexNullState = false;
    chunk.config.properties = chunk.config.properties.filter((p) => p.name !== 'entities');
    const err = await rejection((await open()).ensureSchema({ dimension: DIM, model: MODEL }));
    expect(err.message).toMatch(/QChunk: indexNullState is off.*QChunk\.entities: missing/);
  });

  it('rejects writes before ensureSchema, and reads are empty', async () => {
    const c = corpus();
    const err = await rejection(store.upsertChunks([c.a1]));
    expect((err as PermanentError).code).toBe('STORE_REJECTED');
    expect(await store.hybrid({ text: 'x', vector: [1, 0, 0, 0], alpha: 0.5, limit: 3 })).toEqual([]);
    expect(await store.countChunks()).toBe(0);
  });
});

describe('writes', () => {
  beforeEach(async () => {
    await store.ensureSchema({ dimension: DIM, model: MODEL });
  });

  it('writes chunks in batches with their chunk_id as object id and the keyword text', async () => {
    const batched = await open({ batchSize: 2 });
    const all = Object.values(corpus());
    await batched.upsertChunks(all);
    const inserts = calls('insertMany').filter((c) => c.collection === 'QChunk');
    expect(inserts).toHaveLength(Math.ceil(all.length / 2));
    const sent = inserts.flatMap((c) => c.args as { id: string; properties: Record<string, unknown>; vectors: number[] }[]);
    expect(sent.map((o) => o.id).sort()).toEqual(all.map((c) => c.chunk_id).sort());
    expect(sent[0]?.properties).toHaveProperty('keyword_text');
    expect(sent[0]?.vectors).toHaveLength(DIM);
  });

  it('never lets a batch half succeed silently', async () => {
    const c = corpus();
    fake.nextBatchErrors = { 1: 'context deadline exceeded' };
    expect(await rejection(store.upsertChunks([c.a1, c.a2]))).toBeInstanceOf(RetryableError);
    fake.nextBatchErrors = { 0: "invalid text property 'lang'" };
    const permanent = await rejection(store.upsertChunks([c.a1]));
    expect(permanent).toBeInstanceOf(PermanentError);
    expect(permanent.message).toMatch(/1 of 1 objects failed: invalid text property 'lang'/);
  });

  it('checks vectors before sending anything', async () => {
    const c = corpus();
    const err = await rejection(store.upsertChunks([{ ...c.a1, vector: [1, 0] }]));
    expect((err as PermanentError).code).toBe('DIMENSION_MISMATCH');
    expect(calls('insertMany').filter((x) => x.collection === 'QChunk')).toHaveLength(0);
  });

  it('deletes a document by looping until nothing matches, then its Document object', async () => {
    const d = documents();
    await store.upsertDocuments([d.a, d.b]);
    await store.upsertChunks(Object.values(corpus()));
    fake.deleteCap = 1;
    const before = [...fake.collections.get('QChunk')!.objects.values()].filter((o) => o.properties.doc_id === DOC_A).length;
    const { deletedChunks } = await store.deleteByDoc(DOC_A);
    expect(deletedChunks).toBe(before);
    expect(calls('deleteMany').length).toBe(before + 1);
    expect(await store.getDocument(DOC_A)).toBeNull();
    expect(await store.getDocument(d.b.doc_id)).not.toBeNull();
  });

  it('deleteByDoc with exceptVersion sends doc_id = x AND version != v, and keeps the Document', async () => {
    await store.upsertDocuments([documents().a]);
    await store.deleteByDoc(DOC_A, { exceptVersion: VERSION.a2 });
    expect(calls('deleteMany')[0]?.args).toEqual({
      operator: 'And',
      value: null,
      filters: [
        { operator: 'Equal', target: { property: 'doc_id' }, value: DOC_A },
        { operator: 'NotEqual', target: { property: 'version' }, value: VERSION.a2 },
      ],
    });
    expect(await store.getDocument(DOC_A)).not.toBeNull();
  });
});

describe('reads', () => {
  beforeEach(async () => {
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(Object.values(corpus()));
  });

  it('hybrid: explicit alpha, RelativeScore, keyword property and filter sent; components read back', async () => {
    const c = corpus();
    fake.nextSearch = [
      { uuid: c.a1.chunk_id, metadata: { score: 0.9, explainScore: 'Hybrid (Result Set keyword,bm25) Document x: original score 3, normalized score: 0.4 - Hybrid (Result Set vector,hybridVector) Document x: original score 0.7, normalized score: 0.5' } },
    ];
    const hits = await store.hybrid({ text: '출산 장려금', vector: [1, 0, 0, 0], alpha: 0.5, limit: 5, filter: eq('lang', 'ko'), withVectors: true });
    const sent = calls('hybrid')[0]?.args as { query: string; opts: Record<string, unknown> };
    expect(sent.query).toBe('출산 산장 장려 려금');
    expect(sent.opts).toMatchObject({ alpha: 0.5, fusionType: 'RelativeScore', queryProperties: ['keyword_text'], limit: 5, filters: { operator: 'Equal', target: { property: 'lang' }, value: 'ko' } });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ score: 0.9, keywordScore: 0.8, vectorScore: 1, bm25: 3, cosine: 0.7 });
    expect(hits[0]?.chunk.chunk_id).toBe(c.a1.chunk_id);
    expect(sent.opts).toMatchObject({ includeVector: true });
    expect(Array.from(hits[0]?.vector ?? [])).toEqual(Array.from(c.a1.vector));
  });

  it('hybrid: blank text searches the vector side alone, a zero vector the keyword side, a match-nothing filter nothing', async () => {
    const c = corpus();
    fake.nextSearch = [{ uuid: c.a1.chunk_id, metadata: { distance: 0.2 } }, { uuid: c.a2.chunk_id, metadata: { distance: 0.6 } }];
    const vec = await store.hybrid({ text: '  ', vector: [1, 0, 0, 0], alpha: 0.5, limit: 5 });
    expect(vec.map((h) => [h.score, h.vectorScore, h.cosine])).toEqual([[0.5, 1, 0.8], [0, 0, 0.4]]);
    fake.nextSearch = [{ uuid: c.a1.chunk_id, metadata: { score: 2 } }];
    const kw = await store.hybrid({ text: 'cookie', vector: [0, 0, 0, 0], alpha: 0.5, limit: 5 });
    expect(kw[0]).toMatchObject({ score: 0.5, keywordScore: 1, bm25: 2, cosine: null });
    const before = fake.calls.length;
    expect(await store.hybrid({ text: 'cookie', vector: [1, 0, 0, 0], alpha: 0.5, limit: 5, filter: and(eq('lang', 'ko'), or()) })).toEqual([]);
    expect(fake.calls.length).toBe(before);
  });

  it('scans by cursor when a filtered read exceeds the result window, filtering here', async () => {
    const windowed = await open({ maxResultWindow: 0 });
    const c = corpus();
    const rows: string[] = [];
    for await (const r of windowed.scanChunks({ fields: ['chunk_id'], filter: eq('doc_id', DOC_A) })) rows.push(r.chunk_id);
    expect(rows.sort()).toEqual(Object.values(c).filter((x) => x.doc_id === DOC_A).map((x) => x.chunk_id).sort());
    const fetches = calls('fetchObjects').map((x) => x.args as Record<string, unknown>);
    expect(fetches.every((f) => f.filters === undefined)).toBe(true);
  });

  it('fetchByIds keeps the asked order, skips ids that cannot exist, and returns vectors', async () => {
    const c = corpus();
    const got = await store.fetchByIds([c.b1.chunk_id, 'not-a-uuid', c.a1.chunk_id]);
    expect(got.map((x) => x.chunk_id)).toEqual([c.b1.chunk_id, c.a1.chunk_id]);
    expect(Array.from(got[0]!.vector)).toEqual(Array.from(c.b1.vector));
  });

  it('getDocuments fetches a list by object ids, 500 a request, in the order asked, each once', async () => {
    const d = documents();
    await store.upsertDocuments([d.a, d.b]);
    const many = Array.from({ length: 600 }, (_, i) => `absent-${i}`);
    const before = calls('fetchObjects').length;
    const got = await store.getDocuments([d.b.doc_id, ...many, d.a.doc_id, d.b.doc_id]);
    expect(got).toEqual([d.b, d.a]);
    const fetches = calls('fetchObjects').slice(before).map((x) => x.args as { filters: { operator: string; value: string[] }; limit: number });
    expect(fetches.map((f) => [f.filters.operator, f.filters.value.length, f.limit])).toEqual([['ContainsAny', 500, 500], ['ContainsAny', 102, 102]]);
  });
});
