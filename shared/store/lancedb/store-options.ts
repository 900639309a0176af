import type { VectorIndexPolicy } from './vector-index.ts';
import type { CoalescedRunPacing } from './write-guard.ts';

/** Options of the embedded LanceDB vector store. */
export interface LanceDbStoreOptions {
  /** Directory holding the database (created if missing). */
  dir: string;
  /**
   * Candidates each hybrid side fetches: `max(limit, candidateFloor)`. Fusion normalises over
   * each side's list, so a too-short list distorts the normalisation.
   * @defaultValue 100
   */
  candidateFloor?: number;
  /**
   * Old table versions younger than this survive `optimize()` (readers in other processes may
   * still be on them).
   * @defaultValue 3600000 (one hour)
   */
  pruneOlderThanMs?: number;
  /**
   * How long searches may lag other processes' writes, ms (see search-view.ts); 0 = every search
   * reads the latest commit. This process's own writes are searchable at once either way.
   * @defaultValue 0
   */
  searchLagMs?: number;
  /**
   * How often the full-text index refresh after writes may run (see {@link CoalescedRunPacing}).
   * Each refresh is an `optimize()`, which also compacts the table: its cost grows with the table
   * (~30 ms at 1,000 rows, ~100 ms at 10,000, ~330 ms at 50,000 on two cores), so while writes
   * contend it runs at most this share of the time and each run serves more writes.
   * @defaultValue DEFAULT_REFRESH_PACING
   */
  refreshPacing?: CoalescedRunPacing;
  /**
   * Rows per merge-insert call.
   * @defaultValue 2000
   */
  writeBatchSize?: number;
  /**
   * When `maintain()` builds or rebuilds the vector index.
   * @defaultValue DEFAULT_VECTOR_INDEX_POLICY (20000 chunks, 8 segments)
   */
  vectorIndex?: VectorIndexPolicy;
  /**
   * A filtered search whose filter matches at most this many chunks scans them exactly instead of
   * using the vector index (see DEFAULT_FLAT_SEARCH_CUTOFF).
   * @defaultValue DEFAULT_FLAT_SEARCH_CUTOFF (20000)
   */
  flatSearchCutoff?: number;
}

/**
 * While writes contend, a refresh starts at least 250 ms after the one before and takes at most a
 * quarter of the time (a write then waits up to ~4× the last refresh for its own); a lone writer
 * and a write after a quiet spell are refreshed at once.
 */
export const DEFAULT_REFRESH_PACING: CoalescedRunPacing = { minIntervalMs: 250, maxShare: 0.25 };
