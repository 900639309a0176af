import { z } from 'zod';
import { EnrichedChunk } from '../domain/chunk.ts';
import type { DocumentRecord } from '../domain/document.ts';
import type { FacetName, FacetValueVector } from './facet-values.ts';
import type { Filter, FilterField } from './filter.ts';

export type { Filter } from './filter.ts';
export * from './facet-values.ts';

/** ISO 8601 instant, e.g. `2025-01-31T09:00:00.000Z`. */
const Instant = z.iso.datetime({ offset: true });

/**
 * A chunk as the store holds it, minus the vector: the enriched chunk, the document facets
 * copied onto it (so filters and aggregates need no join), and write times.
 */
export const StoredChunkWithoutVector = EnrichedChunk.extend({
  doc_type: z.string(),
  jurisdiction: z.string(),
  lang: z.string(),
  /** First time this chunk id was written (ids are content-addressed and survive versions). */
  created_at: Instant,
  /** Last time this chunk was written. */
  updated_at: Instant,
});
export type StoredChunkWithoutVector = z.infer<typeof StoredChunkWithoutVector>;

/** A chunk as written to and read from the store. Reads return the vector as a Float32Array. */
export type StoredChunk = StoredChunkWithoutVector & { vector: number[] | Float32Array };

/**
 * The embedder a store's vectors come from, as recorded when its schema was created (vectors of
 * two embedders are not comparable, even of one dimension: see embedder-record.ts).
 */
export interface EmbedderRecord {
  /** `Embedder.model`, e.g. `quarry-hash-v2/d384/...` or `text-embedding-3-small`. */
  model: string;
  dimension: number;
}

/** A hybrid (keyword + vector) query. */
export interface HybridQuery {
  /** Keyword side input; blank text means the keyword side finds nothing. */
  text: string;
  /** Vector side input; its length must equal the store's dimension. An all-zero vector finds nothing. */
  vector: number[] | Float32Array;
  /** 0 = pure keyword, 1 = pure vector, in between: relativeScoreFusion weight of the vector side. */
  alpha: number;
  filter?: Filter;
  limit: number;
  /**
   * Also return each hit's vector (`HybridHit.vector`), so a caller that diversifies by
   * embedding (MMR) needs no second read.
   * @defaultValue false
   */
  withVectors?: boolean;
}

/** One hybrid result. */
export interface HybridHit {
  chunk: StoredChunkWithoutVector;
  /** Fused score, in [0, 1]: `alpha * vectorScore + (1 - alpha) * keywordScore`. */
  score: number;
  /** Keyword score normalised over the keyword candidates, 0 when the keyword side missed it. */
  keywordScore: number;
  /** Vector score normalised over the vector candidates, 0 when the vector side missed it. */
  vectorScore: number;
  /** Raw BM25 of the keyword side, or null when the keyword side did not return this chunk. */
  bm25: number | null;
  /** Raw cosine similarity of the vector side, or null when the vector side did not return it. */
  cosine: number | null;
  /** The chunk's vector, when the query asked `withVectors`. */
  vector?: Float32Array;
}

/** Chunk fields {@link VectorStore.aggregate} can group by. */
export const AGGREGATE_FIELDS = ['doc_type', 'jurisdiction', 'lang', 'section', 'doc_id'] as const;
export type AggregateField = (typeof AGGREGATE_FIELDS)[number];

/** One group of an aggregate: a value and how many chunks carry it. */
export interface AggregateBucket {
  value: string;
  count: number;
}

type Assert<T extends true> = T;
/**
 * Compile-time guard: every facet stays filterable and aggregatable, so a weighted facet value
 * can always become a narrowed search and a candidate count.
 */
export type FacetNamesAreChunkFields = Assert<FacetName extends FilterField & AggregateField ? true : false>;

/** Chunk fields {@link VectorStore.scanChunks} may project: everything but the vector. */
export type ChunkField = keyof StoredChunkWithoutVector;

/** A projected scan over chunks. */
export interface ScanQuery<F extends ChunkField> {
  /** Fields each row carries. A scan reads every match, so ask only for what you need. */
  fields: readonly F[];
  filter?: Filter;
}

/** One row of a scan: exactly the asked fields. */
export type ScannedChunk<F extends ChunkField> = Pick<StoredChunkWithoutVector, F>;

/**
 * The vector index after maintenance: `exact` (none: the store is small enough to scan),
 * `current` (nothing to do), `built`, `rebuilt`, or `server` (the server keeps it current on
 * every write).
 */
export const VECTOR_INDEX_STATES = ['exact', 'current', 'built', 'rebuilt', 'server'] as const;

/** What {@link VectorStore.maintain} found and did. */
export interface MaintenanceReport {
  /** See {@link VECTOR_INDEX_STATES}. */
  vectorIndex: (typeof VECTOR_INDEX_STATES)[number];
  /** The numbers the decision was made on. */
  reason: string;
  seconds: number;
}

/**
 * The vector-store port (seed 000 §3, docs/architecture.md §2). Takes vectors, never text to embed.
 * Every adapter passes `tests/contract/vector-store.contract.ts`.
 *
 * Errors: `RetryableError('STORE_UNAVAILABLE')` for what may pass (I/O, commit conflicts that
 * outlived the adapter's own retries), `PermanentError('STORE_REJECTED')` for what will not
 * (writing before `ensureSchema`, data the store refuses), `PermanentError('DIMENSION_MISMATCH')`
 * for vectors of the wrong length, `PermanentError('EMBEDDER_MISMATCH')` for another embedder and `PermanentError('INVALID_PAYLOAD')` for a malformed filter.
 */
export interface VectorStore {
  /**
   * Creates the Document, Chunk and FacetValueVector collections and their indexes if missing
   * (a store made before a collection existed gains it here). Idempotent.
   * Records `model` (the embedder that writes the vectors, `Embedder.model`) when it creates the
   * store, or when a store made before records existed holds no chunk yet; one that already holds
   * chunks stays without a record (see {@link VectorStore.embedderRecord}).
   * @throws PermanentError `DIMENSION_MISMATCH` when the store exists with another dimension.
   * @throws PermanentError `EMBEDDER_MISMATCH` when the store recorded another model.
   */
  ensureSchema(opts: { dimension: number; model: string }): Promise<void>;
  /** Vector dimension of the existing store, or null before `ensureSchema`. */
  dimension(): Promise<number | null>;
  /**
   * The embedder recorded by `ensureSchema`, or null before it and for a store made before
   * records existed that already held chunks then (its embedder is unknown).
   */
  embedderRecord(): Promise<EmbedderRecord | null>;
  /** Inserts or replaces documents by `doc_id`. */
  upsertDocuments(docs: DocumentRecord[]): Promise<void>;
  /**
   * Inserts or replaces chunks by `chunk_id`; readable (also by keyword) as soon as it returns.
   * @throws PermanentError `DIMENSION_MISMATCH` for a vector of the wrong length.
   */
  upsertChunks(chunks: StoredChunk[]): Promise<void>;
  /**
   * Deletes a document's chunks; with `exceptVersion`, only those of other versions (the
   * Document row stays), without it the chunks and the Document row.
   */
  deleteByDoc(docId: string, opts?: { exceptVersion?: string }): Promise<{ deletedChunks: number }>;
  /** Keyword top-N and vector top-N under the same filter, fused by relativeScoreFusion. */
  hybrid(q: HybridQuery): Promise<HybridHit[]>;
  /** Chunk counts per value of `groupBy`, largest first (ties by value). */
  aggregate(q: { groupBy: AggregateField; filter?: Filter }): Promise<AggregateBucket[]>;
  /** Chunks by id, in the order asked, missing ids skipped, vectors included. */
  fetchByIds(ids: string[]): Promise<StoredChunk[]>;
  getDocument(docId: string): Promise<DocumentRecord | null>;
  countChunks(filter?: Filter): Promise<number>;
  /** Ids and versions of a document's chunks, sorted by chunk_id. */
  listChunkIds(docId: string): Promise<{ chunk_id: string; version: string }[]>;
  /**
   * Every chunk matching `filter`, projected to `fields`, in no particular order, streamed so
   * memory stays flat whatever the corpus size (the facet builder samples from it). Leaving the
   * loop early releases the scan. Before `ensureSchema` it yields nothing.
   * @throws PermanentError `INVALID_PAYLOAD` for a malformed filter or an unknown field.
   */
  scanChunks<F extends ChunkField>(q: ScanQuery<F>): AsyncIterable<ScannedChunk<F>>;
  /**
   * Inserts or replaces facet-value vectors by (`facet`, `value`); the last row of a pair wins
   * inside one call. The FacetValueVector collection is created by `ensureSchema`.
   * @throws PermanentError `STORE_REJECTED` before `ensureSchema` or for a malformed row.
   * @throws PermanentError `DIMENSION_MISMATCH` for a vector of the wrong length.
   */
  upsertFacetValues(rows: FacetValueVector[]): Promise<void>;
  /**
   * Makes `rows` the complete set of `facet`'s values: upserts them first, then deletes every
   * other value of that facet (values whose chunks are all gone), so a reader never sees the
   * facet empty. Rows of another facet are refused; other facets are untouched.
   * @throws PermanentError `STORE_REJECTED` before `ensureSchema`, for a malformed row or one
   *   of another facet.
   * @throws PermanentError `DIMENSION_MISMATCH` for a vector of the wrong length.
   * @throws PermanentError `INVALID_PAYLOAD` for an unknown facet.
   */
  replaceFacetValues(facet: FacetName, rows: FacetValueVector[]): Promise<{ deleted: number }>;
  /**
   * Facet-value vectors of one facet (or all), sorted by facet then value, vectors included.
   * Before `ensureSchema` (or any rebuild) the list is empty.
   * @throws PermanentError `INVALID_PAYLOAD` for an unknown facet.
   */
  listFacetValues(facet?: FacetName): Promise<FacetValueVector[]>;
  /**
   * Brings the search indexes up to date with what was written, where the store does not do it
   * on every write: builds an ANN index on the vectors once the store is large enough, and
   * rebuilds one that writes have fragmented. Slow when it builds (tens of seconds per 100k
   * chunks), so it runs off the write path (the debounced facet-rebuild job calls it); cheap when
   * there is nothing to do. Reads and writes go on meanwhile. Idempotent.
   * @throws RetryableError `STORE_UNAVAILABLE` on I/O failure or persistent commit conflicts.
   */
  maintain(): Promise<MaintenanceReport>;
  /** Releases files and handles; the store is unusable afterwards. */
  close(): Promise<void>;
}
