import * as lancedb from '@lancedb/lancedb';

/** Name of the ANN index on the chunks table's `vector` column. */
export const VECTOR_INDEX = 'vector_idx';

/**
 * HNSW candidate-list size for a search that wants `candidates` hits: seven times the hits, at
 * least 1000. Measured on 100k hash-embedded chunks (512-d) under the time clamp, on graphs built
 * with {@link HNSW_EF_CONSTRUCTION}: the vector side alone finds 94.6–95.0% of the exact top 300
 * in ~13–14 ms at ef 2000 (95.1% in ~16 ms at 3000, 91–93% in ~12 ms at 1500), where the exact
 * scan takes ~120–190 ms. Ignored when the table has no vector index.
 */
export function hnswEf(candidates: number): number {
  return Math.max(1000, candidates * 7);
}

/**
 * Candidate-list size while building the HNSW graph (LanceDB's default is 300). A better-linked
 * graph needs a shorter search for the same recall: at ef 2000 the default graph found 88.8% of
 * the exact top 300, one built at 600 found 94.6–95.0%. The build takes ~75% longer (~52 s
 * against ~30 s at 100k chunks on two cores), in the background; 1000 took ~81 s and found no more.
 */
export const HNSW_EF_CONSTRUCTION = 600;

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

/** What the store knows about its vector index: none, or its segments, unindexed rows and build. */
export interface VectorIndexState {
  rows: number;
  index: {
    segments: number;
    unindexedRows: number;
    /** The graph's build-time candidate-list size as the index records it; null when it does not say. */
    efConstruction: number | null;
  } | null;
}

/** The vector index's {@link VectorIndexState} from the table's index listing; null when it has none. */
export function vectorIndexOf(indices: readonly lancedb.IndexConfig[]): VectorIndexState['index'] {
  const found = indices.find((i) => i.name === VECTOR_INDEX);
  if (!found) return null;
  const efConstruction = Number((found.indexDetails as { hnsw?: { construction_ef?: unknown } } | undefined)?.hnsw?.construction_ef);
  return {
    segments: found.numSegments ?? 1,
    unindexedRows: found.numUnindexedRows ?? 0,
    efConstruction: Number.isFinite(efConstruction) ? efConstruction : null,
  };
}

/** What {@link vectorIndexAction} decided, and the numbers it decided on. */
export interface VectorIndexDecision {
  action: 'none' | 'build' | 'rebuild';
  reason: string;
}

/**
 * Whether the vector index should be built, rebuilt or left alone. Pure. A small store gets none
 * (exact search); a store that grew past `minRows` gets one; an index fragmented into more than
 * `maxSegments` delta segments is rebuilt, and so is one whose graph was built with a shorter
 * candidate list than {@link HNSW_EF_CONSTRUCTION} (by an older Quarry): {@link hnswEf} is sized
 * for the better graph, and on the weaker one it finds ~6 points less of the exact top 300.
 * Unindexed rows alone never trigger a rebuild: every write's `optimize()` folds them in as a
 * segment, and until then they are searched exactly.
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
  const { efConstruction } = state.index;
  if (efConstruction !== null && efConstruction < HNSW_EF_CONSTRUCTION) {
    return { action: 'rebuild', reason: `graph built with efConstruction ${efConstruction} < ${HNSW_EF_CONSTRUCTION}: rebuild` };
  }
  return { action: 'none', reason: `index current: ${state.index.segments} segment(s), ${state.index.unindexedRows} unindexed chunk(s)` };
}

/**
 * Builds (or rebuilds, replacing the old one) an IVF_HNSW_SQ cosine index on `vector`. Searches
 * use it with {@link hnswEf} and a refine step, so returned distances stay exact; rows written
 * afterwards are found too (LanceDB scans what the index does not cover yet, and each
 * `optimize()` indexes them as a new delta segment). Takes about 50 s at 100k chunks on two cores;
 * readers keep using the old index (or the exact scan) until it commits.
 */
export async function buildVectorIndex(table: lancedb.Table): Promise<void> {
  await table.createIndex('vector', {
    config: lancedb.Index.hnswSq({ distanceType: 'cosine', efConstruction: HNSW_EF_CONSTRUCTION }),
    name: VECTOR_INDEX,
    replace: true,
  });
}
