import { z } from 'zod';
import { EnrichedChunk } from '../domain/index.ts';
import type { FacetName } from './facet-values.ts';
import type { Filter, FilterField } from './filter.ts';

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

/** Chunk fields {@link ChunkIndex.aggregate} can group by. */
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

/** Chunk fields {@link ChunkIndex.scanChunks} may project: everything but the vector. */
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
 * The chunk index: the Chunk collection, written by id and read by hybrid search, filters,
 * aggregates, ids and scans. Part of the vector-store port (docs/architecture.md §2); every
 * adapter passes `tests/contract/chunk-index.contract.ts`.
 *
 * Before `StoreAdmin.ensureSchema` reads find nothing and writes fail with
 * `PermanentError('STORE_REJECTED')`. A malformed filter fails with
 * `PermanentError('INVALID_PAYLOAD')` before any I/O; I/O failures are
 * `RetryableError('STORE_UNAVAILABLE')`.
 */
export interface ChunkIndex {
  /**
   * Inserts or replaces chunks by `chunk_id`; readable (also by keyword) as soon as it returns.
   * @throws PermanentError `DIMENSION_MISMATCH` for a vector of the wrong length.
   */
  upsertChunks(chunks: StoredChunk[]): Promise<void>;
  /**
   * Deletes a document's chunks; with `exceptVersion`, only those of other versions (the
   * Document row stays), without it the chunks and the Document row: the document is gone.
   */
  deleteByDoc(docId: string, opts?: { exceptVersion?: string }): Promise<{ deletedChunks: number }>;
  /** Keyword top-N and vector top-N under the same filter, fused by relativeScoreFusion. */
  hybrid(q: HybridQuery): Promise<HybridHit[]>;
  /** Chunk counts per value of `groupBy`, largest first (ties by value). */
  aggregate(q: { groupBy: AggregateField; filter?: Filter }): Promise<AggregateBucket[]>;
  /** Chunks by id, in the order asked, missing ids skipped, vectors included. */
  fetchByIds(ids: string[]): Promise<StoredChunk[]>;
  /**
   * Chunks matching `filter`, in the latest commit: what a writer decides on. With `asSearched`,
   * as this process's searches see the store — what a search planning its branches counts
   * (LanceDB: on the version its searches read, which may lag other processes' writes by the
   * search lag; elsewhere the same as without).
   */
  countChunks(filter?: Filter, opts?: { asSearched?: boolean }): Promise<number>;
  /** Ids and versions of a document's chunks, sorted by chunk_id. */
  listChunkIds(docId: string): Promise<{ chunk_id: string; version: string }[]>;
  /**
   * Every chunk matching `filter`, projected to `fields`, in no particular order, streamed so
   * memory stays flat whatever the corpus size (the facet builder samples from it). Leaving the
   * loop early releases the scan. Before `ensureSchema` it yields nothing.
   * @throws PermanentError `INVALID_PAYLOAD` for a malformed filter or an unknown field.
   */
  scanChunks<F extends ChunkField>(q: ScanQuery<F>): AsyncIterable<ScannedChunk<F>>;
}

/** The methods of {@link ChunkIndex}, for composing a store from its parts (vector-store.ts). */
export const CHUNK_INDEX_METHODS = [
  'upsertChunks', 'deleteByDoc', 'hybrid', 'aggregate', 'fetchByIds', 'countChunks', 'listChunkIds', 'scanChunks',
] as const satisfies readonly (keyof ChunkIndex)[];
