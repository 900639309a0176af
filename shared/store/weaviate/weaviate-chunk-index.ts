import { Filters, type FilterValue } from 'weaviate-client';
import type { AggregateBucket, AggregateField, ChunkField, ChunkIndex, HybridHit, HybridQuery, ScanQuery, ScannedChunk, StoredChunk } from '../chunk-index.ts';
import { filterFields, matchesFilter } from '../filter-eval.ts';
import type { Filter } from '../filter.ts';
import { relativeScoreFusion, type ScoredId } from '../fusion.ts';
import { keywordQueryText } from '../keyword-text.ts';
import { checkAggregateField, checkHybridQuery, checkScanFields, checkVector, sortBuckets, validChunks } from '../validation.ts';
import type { WeaviateDocumentTable } from './weaviate-document-table.ts';
import type { Translated } from './weaviate-filter.ts';
import { toHybridHits } from './weaviate-hybrid.ts';
import { CHUNK_RETURN_PROPERTIES, ID_BATCH, chunkProperty, chunkToProperties, projectChunk, propertiesToChunk, type Properties } from './weaviate-objects.ts';
import { KEYWORD_PROPERTY } from './weaviate-schema.ts';
import { defaultVector, type RawObject, type WeaviateState } from './weaviate-state.ts';

const PAGE = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const byChunkId = (a: { chunk_id: string }, b: { chunk_id: string }) => (a.chunk_id < b.chunk_id ? -1 : a.chunk_id > b.chunk_id ? 1 : 0);
const filtersOf = (t: Translated) => (t.kind === 'filter' ? { filters: t.value } : {});

/** A hybrid query the adapter sends: text and vector as Weaviate takes them, a filter that may match. */
interface SearchRequest {
  text: string;
  vector: number[];
  alpha: number;
  t: Translated & { kind: 'all' | 'filter' };
  limit: number;
  withVectors: boolean;
}

/**
 * The chunk index on Weaviate: the Chunk collection (object id = `chunk_id`), searched on the
 * derived `keyword_text` and the self-provided vectors with relativeScoreFusion.
 */
export class WeaviateChunkIndex implements ChunkIndex {
  constructor(
    private readonly s: WeaviateState,
    private readonly documents: WeaviateDocumentTable,
  ) {}

  async upsertChunks(list: StoredChunk[]): Promise<void> {
    if (list.length === 0) return;
    const schema = await this.s.requireSchema('upsertChunks');
    const valid = validChunks(list, schema.dimension);
    await this.s.insert(this.s.chunks, 'upsertChunks', valid.map((c) => {
      const { vector, ...rest } = c;
      return { id: c.chunk_id, properties: chunkToProperties(rest), vectors: Array.from(vector) };
    }));
  }

  async deleteByDoc(docId: string, opts: { exceptVersion?: string } = {}): Promise<{ deletedChunks: number }> {
    if (!(await this.s.schema())) return { deletedChunks: 0 };
    const doc: FilterValue = { operator: 'Equal', target: { property: 'doc_id' }, value: docId };
    const filter: FilterValue =
      opts.exceptVersion === undefined ? doc : Filters.and(doc, { operator: 'NotEqual', target: { property: 'version' }, value: opts.exceptVersion });
    const deletedChunks = await this.s.deleteWhere(this.s.chunks, filter, 'deleteByDoc');
    if (opts.exceptVersion === undefined) await this.documents.deleteRow(docId);
    return { deletedChunks };
  }

  async hybrid(q: HybridQuery): Promise<HybridHit[]> {
    checkHybridQuery(q);
    const schema = await this.s.schema();
    const t = this.s.translate(q.filter, schema);
    if (!schema) return [];
    checkVector(q.vector, schema.dimension, 'query vector');
    if (t.kind === 'none') return [];
    const req: SearchRequest = { text: keywordQueryText(q.text), vector: Array.from(q.vector), alpha: q.alpha, t, limit: q.limit, withVectors: q.withVectors === true };
    const hasText = req.text.trim() !== '' && q.alpha < 1;
    const hasVector = req.vector.some((x) => x !== 0) && q.alpha > 0;
    if (!hasText && !hasVector) return [];
    if (!hasText) return this.oneSide('vector', req);
    if (!hasVector) return this.oneSide('keyword', req);
    return this.fused(req);
  }

  async aggregate({ groupBy, filter }: { groupBy: AggregateField; filter?: Filter }): Promise<AggregateBucket[]> {
    checkAggregateField(groupBy);
    const schema = await this.s.schema();
    const t = this.s.translate(filter, schema);
    if (!schema || t.kind === 'none') return [];
    const groups = await this.s.guarded('aggregate', () =>
      this.s.chunks.aggregate.groupBy.overAll({ groupBy: { property: groupBy, limit: this.s.settings.maxResultWindow }, ...filtersOf(t) }),
    );
    return sortBuckets(groups.filter((g) => g.totalCount > 0).map((g) => ({ value: String(g.groupedBy.value), count: g.totalCount })));
  }

  async fetchByIds(ids: string[]): Promise<StoredChunk[]> {
    const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
    if (wanted.length === 0 || !(await this.s.schema())) return [];
    const found = new Map<string, StoredChunk>();
    for (let start = 0; start < wanted.length; start += ID_BATCH) {
      const slice = wanted.slice(start, start + ID_BATCH);
      const page = await this.s.guarded('fetchByIds', () =>
        this.s.chunks.query.fetchObjects({ filters: { operator: 'ContainsAny', target: { property: '_id' }, value: slice }, limit: slice.length, includeVector: true, returnProperties: [...CHUNK_RETURN_PROPERTIES] }),
      );
      for (const o of page.objects) found.set(o.uuid, { ...propertiesToChunk(o.properties as Properties), vector: Float32Array.from(defaultVector(o as RawObject)) });
    }
    return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
  }

  async countChunks(filter?: Filter): Promise<number> {
    const schema = await this.s.schema();
    const t = this.s.translate(filter, schema);
    return schema ? this.count(t) : 0;
  }

  async listChunkIds(docId: string): Promise<{ chunk_id: string; version: string }[]> {
    const found: { chunk_id: string; version: string }[] = [];
    for await (const row of this.scanChunks({ fields: ['chunk_id', 'version'], filter: { op: 'eq', field: 'doc_id', value: docId } })) found.push(row);
    return found.sort(byChunkId);
  }

  async *scanChunks<F extends ChunkField>(q: ScanQuery<F>): AsyncIterable<ScannedChunk<F>> {
    checkScanFields(q.fields);
    const schema = await this.s.schema();
    const t = this.s.translate(q.filter, schema);
    if (!schema) return;
    for await (const o of this.readAll(t, q.filter, q.fields.map(chunkProperty))) yield projectChunk(o.properties, q.fields);
  }

  private async count(t: Translated): Promise<number> {
    if (t.kind === 'none') return 0;
    const r = await this.s.guarded('count', () => this.s.chunks.aggregate.overAll(filtersOf(t)));
    return r.totalCount;
  }

  /** Every object matching `t`, projected to `props`: offset pages when they fit the server's window, else a cursor scan filtered here. */
  private async *readAll(t: Translated, filter: Filter | undefined, props: readonly string[]): AsyncGenerator<RawObject> {
    if (t.kind === 'none') return;
    const total = t.kind === 'filter' ? await this.count(t) : Number.POSITIVE_INFINITY;
    if (t.kind === 'filter' && total <= this.s.settings.maxResultWindow) {
      for (let offset = 0; offset < total; offset += PAGE) {
        const page = await this.s.guarded('read', () => this.s.chunks.query.fetchObjects({ filters: t.value, limit: Math.min(PAGE, total - offset), offset, returnProperties: [...props] }));
        for (const o of page.objects) yield o as RawObject;
        if (page.objects.length === 0) return;
      }
      return;
    }
    // The cursor API takes no filter: read what the filter needs and apply it here.
    const needed = [...new Set([...props, ...filterFields(filter)])];
    let after: string | undefined;
    for (;;) {
      const page = await this.s.guarded('scan', () => this.s.chunks.query.fetchObjects({ limit: PAGE, ...(after ? { after } : {}), returnProperties: needed }));
      for (const o of page.objects) {
        if (!filter || matchesFilter(filter, projectChunk(o.properties as Properties, needed as ChunkField[]))) yield o as RawObject;
      }
      if (page.objects.length < PAGE) return;
      after = page.objects[page.objects.length - 1]?.uuid;
    }
  }

  /** Both sides, fused by the server (RelativeScore); the components read back from its explanation. */
  private async fused(req: SearchRequest): Promise<HybridHit[]> {
    const res = await this.s.guarded('hybrid', () =>
      this.s.chunks.query.hybrid(req.text, {
        alpha: req.alpha,
        fusionType: 'RelativeScore',
        vector: req.vector,
        queryProperties: [KEYWORD_PROPERTY],
        limit: req.limit,
        ...filtersOf(req.t),
        returnMetadata: ['score', 'explainScore'],
        returnProperties: [...CHUNK_RETURN_PROPERTIES],
        includeVector: req.withVectors,
      }),
    );
    return toHybridHits(
      res.objects.map((o) => ({
        chunk: propertiesToChunk(o.properties as Properties),
        score: o.metadata?.score,
        explainScore: o.metadata?.explainScore,
        ...(req.withVectors ? { vector: Float32Array.from(defaultVector(o as RawObject)) } : {}),
      })),
      req.alpha,
    );
  }

  /** One side of a search when the other has nothing to search with (blank text, zero vector), fused here. */
  private async oneSide(side: 'keyword' | 'vector', req: SearchRequest): Promise<HybridHit[]> {
    const common = { ...filtersOf(req.t), includeVector: req.withVectors, limit: Math.max(req.limit, this.s.settings.candidateFloor), returnProperties: [...CHUNK_RETURN_PROPERTIES] };
    const res =
      side === 'keyword'
        ? await this.s.guarded('bm25', () => this.s.chunks.query.bm25(req.text, { ...common, queryProperties: [KEYWORD_PROPERTY], returnMetadata: ['score'] }))
        : await this.s.guarded('nearVector', () => this.s.chunks.query.nearVector(req.vector, { ...common, returnMetadata: ['distance'] }));
    const byId = new Map(res.objects.map((o) => [String(o.properties.chunk_id), o]));
    const raw: ScoredId[] = res.objects.map((o) => ({
      id: String(o.properties.chunk_id),
      score: side === 'keyword' ? Number(o.metadata?.score ?? 0) : 1 - Number(o.metadata?.distance ?? 1),
    }));
    const rawById = new Map(raw.map((r) => [r.id, r.score]));
    const fused = relativeScoreFusion(side === 'keyword' ? raw : [], side === 'vector' ? raw : [], req.alpha, req.limit);
    return fused.map((f) => {
      const o = byId.get(f.id) as RawObject;
      return {
        chunk: propertiesToChunk(o.properties),
        score: f.score,
        keywordScore: f.keywordScore,
        vectorScore: f.vectorScore,
        bm25: side === 'keyword' ? (rawById.get(f.id) ?? null) : null,
        cosine: side === 'vector' ? (rawById.get(f.id) ?? null) : null,
        ...(req.withVectors ? { vector: Float32Array.from(defaultVector(o)) } : {}),
      };
    });
  }
}
