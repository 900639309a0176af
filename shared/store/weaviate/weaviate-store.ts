import { Filters, type Collection, type FilterValue, type WeaviateClient } from 'weaviate-client';
import { PermanentError } from '../../errors.ts';
import { filterFields, matchesFilter } from '../filter-eval.ts';
import { relativeScoreFusion, type ScoredId } from '../fusion.ts';
import { keywordQueryText } from '../keyword-text.ts';
import type { Filter } from '../filter.ts';
import { checkModel } from '../embedder-record.ts';
import { checkAggregateField, checkDimension, checkScanFields, checkHybridQuery, checkVector, sortBuckets, validChunks, validDocuments } from '../validation.ts';
import type { ChunkField, HybridHit, ScanQuery, ScannedChunk, StoredChunk, VectorStore } from '../vector-store.ts';
import { connectWeaviate, type WeaviateConnectionOptions } from './weaviate-connection.ts';
import { batchError, classifyWeaviateError } from './weaviate-errors.ts';
import { createWeaviateFacetOps } from './weaviate-facets.ts';
import { checkFilterAgainstSchema, toWeaviateFilter, type Translated } from './weaviate-filter.ts';
import { toHybridHits } from './weaviate-hybrid.ts';
import { CHUNK_RETURN_PROPERTIES, chunkProperty, chunkToProperties, documentToProperties, documentUuid, projectChunk, propertiesToChunk, propertiesToDocument, type Properties } from './weaviate-objects.ts';
import { ensureCollections, type SchemaState } from './weaviate-schema-sync.ts';
import { KEYWORD_PROPERTY, collectionNames, type BodyTokenization } from './weaviate-schema.ts';

/** Options of the Weaviate vector store. */
export interface WeaviateStoreOptions extends WeaviateConnectionOptions {
  /** Prefix of the collection names (`<prefix>Document`, `<prefix>Chunk`, `<prefix>FacetValueVector`). @defaultValue '' */
  collectionPrefix?: string;
  /** Tokenization of `body`: `auto` asks for `kagome_kr` and falls back to `trigram` when the server lacks it. @defaultValue auto */
  bodyTokenization?: BodyTokenization | 'auto';
  /** Objects per batch request (seed 000: 200–1,000). @defaultValue 500 */
  batchSize?: number;
  /** Candidates each side of a client-fused search fetches: `max(limit, candidateFloor)`. @defaultValue 100 */
  candidateFloor?: number;
  /** The server's QUERY_MAXIMUM_RESULTS: filtered reads page by offset up to it, larger ones scan by cursor. @defaultValue 10000 */
  maxResultWindow?: number;
}

type Client = Collection<undefined, string, undefined>;
type RawObject = { uuid: string; properties: Properties; vectors: Record<string, unknown> };

const ID_BATCH = 500;
const PAGE = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The object's default vector as plain numbers. */
export function defaultVector(o: { vectors: Record<string, unknown> }): number[] {
  const v = o.vectors.default ?? Object.values(o.vectors)[0];
  return Array.isArray(v) ? v.map(Number) : [];
}

/**
 * Opens the Weaviate store: one client for the process, collections created by `ensureSchema`.
 * `connect` is the client factory (tests pass a fake).
 * @throws RetryableError `STORE_UNAVAILABLE` when the server cannot be reached.
 * @throws PermanentError `INVALID_CONFIG` for a malformed URL or collection prefix.
 */
export async function createWeaviateStore(
  options: WeaviateStoreOptions,
  connect: (o: WeaviateConnectionOptions) => Promise<WeaviateClient> = connectWeaviate,
): Promise<VectorStore> {
  const names = collectionNames(options.collectionPrefix ?? '');
  const batchSize = Math.min(1000, Math.max(1, options.batchSize ?? 500));
  const candidateFloor = options.candidateFloor ?? 100;
  const maxWindow = options.maxResultWindow ?? 10_000;
  const client = await connect(options);
  const chunks = client.collections.use(names.Chunk);
  const documents = client.collections.use(names.Document);
  let state: SchemaState | null = null;
  let closed = false;

  async function guarded<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (closed) throw new PermanentError('STORE_REJECTED', 'weaviate store is closed');
    try {
      return await fn();
    } catch (err) {
      throw classifyWeaviateError(err, what);
    }
  }

  /** The schema as this process knows it; read from the server once (another process may have created it). */
  async function schema(): Promise<SchemaState | null> {
    state ??= await guarded('read schema', () => ensureCollections(client, { prefix: options.collectionPrefix ?? '', create: false }));
    return state;
  }

  async function requireSchema(what: string): Promise<SchemaState> {
    const s = await schema();
    if (!s) throw new PermanentError('STORE_REJECTED', `weaviate collection ${names.Chunk} does not exist: call ensureSchema first (${what})`);
    return s;
  }

  /** Translates a filter and checks it against the Chunk properties before it is sent. */
  function translate(filter: Filter | undefined, s: SchemaState | null): Translated {
    const t = toWeaviateFilter(filter);
    if (t.kind === 'filter' && s) checkFilterAgainstSchema(t.value, s.chunkProperties);
    return t;
  }

  async function insert(collection: Client, what: string, objects: { id: string; properties: Properties; vectors?: number[] }[]): Promise<void> {
    for (let start = 0; start < objects.length; start += batchSize) {
      const batch = objects.slice(start, start + batchSize);
      const result = await guarded(what, () => collection.data.insertMany(batch));
      const failure = batchError(what, batch.length, Object.values(result.errors).map((e) => ({ message: e.message, code: e.code })));
      if (failure) throw failure;
    }
  }

  /** Deletes everything `where` matches; the server caps one call, so it loops until nothing matches. */
  async function deleteWhere(collection: Client, where: FilterValue, what: string): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < 10_000; round++) {
      const r = await guarded(what, () => collection.data.deleteMany(where));
      deleted += r.successful;
      if (r.failed > 0) throw batchError(what, r.matches, [{ message: `${r.failed} deletes failed` }]) as Error;
      if (r.matches === 0 || r.successful === 0) return deleted;
    }
    return deleted;
  }

  async function count(t: Translated): Promise<number> {
    if (t.kind === 'none') return 0;
    const r = await guarded('count', () => chunks.aggregate.overAll(t.kind === 'filter' ? { filters: t.value } : {}));
    return r.totalCount;
  }

  /** Every object matching `t`, projected to `props`: offset pages when they fit the server's window, else a cursor scan filtered here. */
  async function* readAll(t: Translated, filter: Filter | undefined, props: readonly string[]): AsyncGenerator<RawObject> {
    if (t.kind === 'none') return;
    const total = t.kind === 'filter' ? await count(t) : Number.POSITIVE_INFINITY;
    if (t.kind === 'filter' && total <= maxWindow) {
      for (let offset = 0; offset < total; offset += PAGE) {
        const page = await guarded('read', () => chunks.query.fetchObjects({ filters: t.value, limit: Math.min(PAGE, total - offset), offset, returnProperties: [...props] }));
        for (const o of page.objects) yield o as RawObject;
        if (page.objects.length === 0) return;
      }
      return;
    }
    // The cursor API takes no filter: read what the filter needs and apply it here.
    const needed = [...new Set([...props, ...filterFields(filter)])];
    let after: string | undefined;
    for (;;) {
      const page = await guarded('scan', () => chunks.query.fetchObjects({ limit: PAGE, ...(after ? { after } : {}), returnProperties: needed }));
      for (const o of page.objects) {
        if (!filter || matchesFilter(filter, projectChunk(o.properties as Properties, needed as ChunkField[]))) yield o as RawObject;
      }
      if (page.objects.length < PAGE) return;
      after = page.objects[page.objects.length - 1]?.uuid;
    }
  }

  /** One side of a search when the other has nothing to search with (blank text, zero vector). */
  async function oneSide(side: 'keyword' | 'vector', text: string, vector: number[], alpha: number, t: Translated & { kind: 'all' | 'filter' }, limit: number, withVectors: boolean): Promise<HybridHit[]> {
    const filters = { ...(t.kind === 'filter' ? { filters: t.value } : {}), includeVector: withVectors };
    const candidates = Math.max(limit, candidateFloor);
    const res =
      side === 'keyword'
        ? await guarded('bm25', () => chunks.query.bm25(text, { ...filters, limit: candidates, queryProperties: [KEYWORD_PROPERTY], returnMetadata: ['score'], returnProperties: [...CHUNK_RETURN_PROPERTIES] }))
        : await guarded('nearVector', () => chunks.query.nearVector(vector, { ...filters, limit: candidates, returnMetadata: ['distance'], returnProperties: [...CHUNK_RETURN_PROPERTIES] }));
    const byId = new Map(res.objects.map((o) => [String(o.properties.chunk_id), o]));
    const raw: ScoredId[] = res.objects.map((o) => ({
      id: String(o.properties.chunk_id),
      score: side === 'keyword' ? Number(o.metadata?.score ?? 0) : 1 - Number(o.metadata?.distance ?? 1),
    }));
    const rawById = new Map(raw.map((r) => [r.id, r.score]));
    const fused = relativeScoreFusion(side === 'keyword' ? raw : [], side === 'vector' ? raw : [], alpha, limit);
    return fused.map((f) => {
      const o = byId.get(f.id) as RawObject;
      return {
        chunk: propertiesToChunk(o.properties),
        score: f.score,
        keywordScore: f.keywordScore,
        vectorScore: f.vectorScore,
        bm25: side === 'keyword' ? (rawById.get(f.id) ?? null) : null,
        cosine: side === 'vector' ? (rawById.get(f.id) ?? null) : null,
        ...(withVectors ? { vector: Float32Array.from(defaultVector(o)) } : {}),
      };
    });
  }

  async function* scan<F extends ChunkField>(q: ScanQuery<F>): AsyncGenerator<ScannedChunk<F>> {
    checkScanFields(q.fields);
    const s = await schema();
    const t = translate(q.filter, s);
    if (!s) return;
    for await (const o of readAll(t, q.filter, q.fields.map(chunkProperty))) yield projectChunk(o.properties, q.fields);
  }

  const facetOps = createWeaviateFacetOps({ client, name: names.FacetValueVector, guarded, insert, deleteWhere, schema });

  return {
    ...facetOps,

    async ensureSchema({ dimension, model }) {
      checkDimension(dimension);
      checkModel(model);
      state = await guarded('ensureSchema', () =>
        ensureCollections(client, { prefix: options.collectionPrefix ?? '', create: true, dimension, model, body: options.bodyTokenization ?? 'auto' }),
      );
    },

    async dimension() {
      return (await schema())?.dimension ?? null;
    },

    async embedderRecord() {
      const s = await schema();
      return s?.embedder ? { model: s.embedder, dimension: s.dimension } : null;
    },

    async upsertDocuments(docs) {
      if (docs.length === 0) return;
      const valid = validDocuments(docs);
      await requireSchema('upsertDocuments');
      await insert(documents, 'upsertDocuments', valid.map((d) => ({ id: documentUuid(d.doc_id), properties: documentToProperties(d) })));
    },

    async upsertChunks(list) {
      if (list.length === 0) return;
      const s = await requireSchema('upsertChunks');
      const valid = validChunks(list, s.dimension);
      await insert(chunks, 'upsertChunks', valid.map((c: StoredChunk) => {
        const { vector, ...rest } = c;
        return { id: c.chunk_id, properties: chunkToProperties(rest), vectors: Array.from(vector) };
      }));
    },

    async deleteByDoc(docId, opts = {}) {
      if (!(await schema())) return { deletedChunks: 0 };
      const doc: FilterValue = { operator: 'Equal', target: { property: 'doc_id' }, value: docId };
      const filter: FilterValue =
        opts.exceptVersion === undefined ? doc : Filters.and(doc, { operator: 'NotEqual', target: { property: 'version' }, value: opts.exceptVersion });
      const deletedChunks = await deleteWhere(chunks, filter, 'deleteByDoc');
      if (opts.exceptVersion === undefined) await guarded('deleteByDoc', () => documents.data.deleteById(documentUuid(docId)));
      return { deletedChunks };
    },

    async hybrid(q) {
      checkHybridQuery(q);
      const s = await schema();
      const t = translate(q.filter, s);
      if (!s) return [];
      checkVector(q.vector, s.dimension, 'query vector');
      if (t.kind === 'none') return [];
      const text = keywordQueryText(q.text);
      const vector = Array.from(q.vector);
      const hasText = text.trim() !== '' && q.alpha < 1;
      const hasVector = vector.some((x) => x !== 0) && q.alpha > 0;
      if (!hasText && !hasVector) return [];
      const withVectors = q.withVectors === true;
      if (!hasText) return oneSide('vector', text, vector, q.alpha, t, q.limit, withVectors);
      if (!hasVector) return oneSide('keyword', text, vector, q.alpha, t, q.limit, withVectors);
      const res = await guarded('hybrid', () =>
        chunks.query.hybrid(text, {
          alpha: q.alpha,
          fusionType: 'RelativeScore',
          vector,
          queryProperties: [KEYWORD_PROPERTY],
          limit: q.limit,
          ...(t.kind === 'filter' ? { filters: t.value } : {}),
          returnMetadata: ['score', 'explainScore'],
          returnProperties: [...CHUNK_RETURN_PROPERTIES],
          includeVector: withVectors,
        }),
      );
      return toHybridHits(
        res.objects.map((o) => ({
          chunk: propertiesToChunk(o.properties as Properties),
          score: o.metadata?.score,
          explainScore: o.metadata?.explainScore,
          ...(withVectors ? { vector: Float32Array.from(defaultVector(o as RawObject)) } : {}),
        })),
        q.alpha,
      );
    },

    async aggregate({ groupBy, filter }) {
      checkAggregateField(groupBy);
      const s = await schema();
      const t = translate(filter, s);
      if (!s || t.kind === 'none') return [];
      const groups = await guarded('aggregate', () =>
        chunks.aggregate.groupBy.overAll({ groupBy: { property: groupBy, limit: maxWindow }, ...(t.kind === 'filter' ? { filters: t.value } : {}) }),
      );
      return sortBuckets(groups.filter((g) => g.totalCount > 0).map((g) => ({ value: String(g.groupedBy.value), count: g.totalCount })));
    },

    async fetchByIds(ids) {
      const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
      if (wanted.length === 0 || !(await schema())) return [];
      const found = new Map<string, StoredChunk>();
      for (let start = 0; start < wanted.length; start += ID_BATCH) {
        const slice = wanted.slice(start, start + ID_BATCH);
        const page = await guarded('fetchByIds', () =>
          chunks.query.fetchObjects({ filters: { operator: 'ContainsAny', target: { property: '_id' }, value: slice }, limit: slice.length, includeVector: true, returnProperties: [...CHUNK_RETURN_PROPERTIES] }),
        );
        for (const o of page.objects) found.set(o.uuid, { ...propertiesToChunk(o.properties as Properties), vector: Float32Array.from(defaultVector(o as RawObject)) });
      }
      return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
    },

    async getDocument(docId) {
      if (!(await schema())) return null;
      const o = await guarded('getDocument', () => documents.query.fetchObjectById(documentUuid(docId)));
      return o ? propertiesToDocument(o.properties as Properties) : null;
    },

    async countChunks(filter) {
      const s = await schema();
      const t = translate(filter, s);
      return s ? count(t) : 0;
    },

    async listChunkIds(docId) {
      const found: { chunk_id: string; version: string }[] = [];
      for await (const row of scan({ fields: ['chunk_id', 'version'], filter: { op: 'eq', field: 'doc_id', value: docId } })) found.push(row);
      return found.sort((a, b) => (a.chunk_id < b.chunk_id ? -1 : a.chunk_id > b.chunk_id ? 1 : 0));
    },

    scanChunks: scan,

    async maintain() {
      return { vectorIndex: 'server', reason: 'Weaviate keeps its HNSW index current on every write', seconds: 0 };
    },

    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
