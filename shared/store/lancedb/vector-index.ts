import * as lancedb from '@lancedb/lancedb';

/** Name of the ANN index on the chunks table's `vector` column. */
export const VECTOR_INDEX = 'vector_idx';

/**
 * HNSW candidate-list size for a search that wants `candidates` hits: ten times the hits, at
 * least 1000. On 100k hash-embedded chunks (512-d) the vector side alone finds ~95% of the exact
 * top 300 under the time clamp in ~17–23 ms, where the exact scan takes ~170–190 ms; the fused
 * hybrid top 300 keeps 92–93% of the exact hybrid's (93–95% of its top 30), varying by build.
 * Ignored when the table has no vector index.
 */
export function hnswEf(candidates: number): number {
  return Math.max(1000, candidates * 10);
}

/**
 * Filtered vector searches whose filter leaves at most this many chunks skip the index and scan
 * those chunks exactly, as Weaviate's `flatSearchCutoff` does. Measured at 100k chunks: the exact
 * scan costs ~12 ms plus ~1.2 ms per thousand matching chunks (it reads each one's vector), so
 * ~35 ms for a 19k-chunk branch, every time, missing nothing. An HNSW search under a filter costs
 * ~8–16 ms when the question's neighbours mostly pass the filter, but wanders the graph when they
 * mostly fail it: ~75 ms for an English question narrowed to 19k Korean chunks, up to ~100 ms for
 * some of the agent's drill-down branches, and only ~88% of the exact top 200. The agent's p95
 * is made of its validator loops, whose drill-down searches are such filtered searches, so the
 * bounded, exact scan is the better choice up to this size.
 */
export const DEFAULT_FLAT_SEARCH_CUTOFF = 20_000;

/** When the store indexes its vectors (see {@link vectorIndexAction}). */
export interface VectorIndexPolicy {
  /**
   * Below this many chunks an exact scan is fast enough and always exact: no index is built.
   * @defaultValue 20000
   */
  minRows: number;
  /**
   * Each `optimize()` after a write adds the new rows to the index as one more delta segment,
   * and every segment is searched separately (~0.5 ms each at 100k chunks), and LanceDB 0.31
   * cannot merge them. Past this many segments the index is rebuilt as one.
   * @defaultValue 8
   */
  maxSegments: number;
}

export const DEFAULT_VECTOR_INDEX_POLICY: VectorIndexPolicy = { minRows: 20_000, maxSegments: 8 };

/** What the store knows about its vector index: none, or its segments and unindexed rows. */
export interface VectorIndexState {
  rows: number;
  index: { segments: number; unindexedRows: number } | null;
}

/** What {@link vectorIndexAction} decided, and the numbers it decided on. */
export interface VectorIndexDecision {
  action: 'none' | 'build' | 'rebuild';
  reason: string;
}

/**
 * Whether the vector index should be built, rebuilt or left alone. Pure. A small store gets none
 * (exact search); a store that grew past `minRows` gets one; an index fragmented into more than
 * `maxSegments` delta segments is rebuilt. Unindexed rows alone never trigger a rebuild: every
 * write's `optimize()` folds them in as a segment, and until then they are searched exactly.
 */
export function vectorIndexAction(state: VectorIndexState, policy: VectorIndexPolicy = DEFAULT_VECTOR_INDEX_POLICY): VectorIndexDecision {
  if (!state.index) {
    return state.rows >= policy.minRows
      ? { action: 'build', reason: `${state.rows} chunks ≥ ${policy.minRows}: index the vectors` }
      : { action: 'none', reason: `${state.rows} chunks < ${policy.minRows}: exact vector search` };
  }
  if (state.index.segments > policy.maxSegments) {
    return { action: 'rebuild', reason: `${state.index.segments} index segments > ${policy.maxSegments}: rebuild as one` };
  }
  return { action: 'none', reason: `index current: ${state.index.segments} segment(s), ${state.index.unindexedRows} unindexed chunk(s)` };
}

/**
 * Builds (or rebuilds, replacing the old one) an IVF_HNSW_SQ cosine index on `vector`. Searches
 * use it with {@link hnswEf} and a refine step, so returned distances stay exact; rows written
 * afterwards are found too (LanceDB scans what the index does not cover yet, and each
 * `optimize()` indexes them as a new delta segment). Takes about 35 s at 100k chunks on two cores;
 * readers keep using the old index (or the exact scan) until it commits.
 */
export async function buildVectorIndex(table: lancedb.Table): Promise<void> {
  await table.createIndex('vector', {
    config: lancedb.Index.hnswSq({ distanceType: 'cosine' }),
    name: VECTOR_INDEX,
    replace: true,
  });
}
