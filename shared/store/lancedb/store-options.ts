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
   * How often each background index refresh after writes may run (see {@link CoalescedRunPacing}):
   * the recent rows' refresh and the fold of the chunks table (see FOLD_AFTER in lance-state.ts).
   * Writes do not wait for them (LanceDB scans the rows an index has not taken in yet), but they
   * run under the write lock, and each is an `optimize()`, which also compacts its table: a fold's
   * cost grows with the chunks table (~100 ms at 1,600 chunks, ~1–2 s at 100,000 on two cores).
   * @defaultValue DEFAULT_REFRESH_PACING
   */
  refreshPacing?: CoalescedRunPacing;
  /**
   * The recent rows' refresh starts at least this long after the previous one began (and no sooner
   * than `refreshPacing` allows): the rows written meanwhile are scanned by the searches instead.
   * @defaultValue DEFAULT_RECENT_REFRESH_INTERVAL_MS
   */
  recentRefreshIntervalMs?: number;
  /**
   * When a searched store folds its recent rows into the chunks table's full-text index: once this
   * process has written `rows` rows since its last fold, or the oldest of them is `ms` old (see
   * FOLD_AFTER in lance-state.ts).
   * @defaultValue FOLD_AFTER (1,000 rows, 10 s)
   */
  foldAfter?: { rows: number; ms: number };
  /**
   * A store not searched (by any process sharing its directory) for this long is search-idle: its
   * index refresh after writes waits for the next search, `maintain()` or close (see
   * search-activity.ts). 0 = never idle, every write asks for a refresh.
   * @defaultValue DEFAULT_SEARCH_IDLE_AFTER_MS
   */
  searchIdleAfterMs?: number;
  /**
   * How long a commit of rows waits for company under steady writes, ms (see `lingerMs` of
   * write-guard.ts `createGroupCommit`): an idle store commits at once, a busy one at most once
   * per linger per table.
   * @defaultValue DEFAULT_COMMIT_LINGER_MS
   */
  commitLingerMs?: number;
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
 * Refreshes run back to back while writes come in (none waits for them): what a search must scan
 * stays small, and queries asked while ingest runs stay fast. Spacing them (e.g. 2 s, a tenth of
 * the time) ingests faster into a large store but slows those queries several times over (docs/vector-stores.md,
 * *Index refresh in the background*): worth it for a bulk load nobody queries meanwhile. The
 * recent rows' refresh is spaced by DEFAULT_RECENT_REFRESH_INTERVAL_MS besides.
 */
export const DEFAULT_REFRESH_PACING: CoalescedRunPacing = { minIntervalMs: 0, maxShare: 1 };

/**
 * The recent rows' refresh at most every 2 s. It is an `optimize()` of the recent table, ~55–100
 * ms of CPU at 100–1,000 rows however few it adds, and ran after every commit; a search scans the
 * rows it has not taken in yet for ~0.15 ms a row (7 rows 1.3 ms, 30 rows 3–5 ms). At 100k chunks,
 * a writer committing a 7-chunk document about twice a second beside a searching process: 34
 * refreshes in 70 s instead of ~110, ~11 s of CPU less, and candidate p95 83 / 91 ms against 91 /
 * 96 run back to back (docs/benchmarks.md, *Pinned search handles, paced recent refreshes*).
 */
export const DEFAULT_RECENT_REFRESH_INTERVAL_MS = 2_000;

/**
 * A commit's linger under steady writes, ms. Small documents reach the upsert stage a few tens of
 * ms apart, and each commit is a table version and a small file that counts and merge-inserts read
 * until the next compaction: 200 small PDFs through a search-idle store made 71–77 commits (both
 * tables) at 250 ms, 33–35 at 500 (less CPU, and no longer), 25 at 1,000 (no less CPU, and slower:
 * a document's two commits each wait). A document dropped into an idle store is not delayed; one
 * arriving during a burst is searchable up to two lingers later.
 */
export const DEFAULT_COMMIT_LINGER_MS = 500;

/**
 * A store nobody searched for this long stops refreshing its index after every write (as
 * Elasticsearch's `index.search.idle.after`, 30 s): a bulk load pays one refresh when it is
 * searched or maintained, not one compaction of the whole table per commit.
 */
export const DEFAULT_SEARCH_IDLE_AFTER_MS = 30_000;
