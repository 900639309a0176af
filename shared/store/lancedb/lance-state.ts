/**
 * What the parts of the LanceDB store share: one connection with its table handles, the write
 * lock, the searches' view and caches, and index upkeep. Each part (lance-chunk-index.ts,
 * lance-document-table.ts, facet-table.ts, lance-store-admin.ts) takes this state and nothing
 * else of the others, but the document table the chunk index deletes rows of.
 */
import * as lancedb from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { isQuarryError, PermanentError } from '../../errors.ts';
import type { SearchCaches } from './hybrid-search.ts';
import type { SearchView } from './search-view.ts';
import { isSearchIdle, type SearchActivity } from './search-activity.ts';
import { DEFAULT_COMMIT_LINGER_MS, DEFAULT_RECENT_REFRESH_INTERVAL_MS, DEFAULT_REFRESH_PACING, DEFAULT_SEARCH_IDLE_AFTER_MS, type LanceDbStoreOptions } from './store-options.ts';
import { DEFAULT_FLAT_SEARCH_CUTOFF, DEFAULT_VECTOR_INDEX_POLICY, type VectorIndexPolicy } from './vector-index.ts';
import { classifyStoreError, createCoalescedRun, validatePacing, withConflictRetry, type CoalescedRun, type CoalescedRunPacing } from './write-guard.ts';
import { ADDED_AT_COLUMN, FTS_INDEX, dimensionOfSchema } from './schema.ts';
import { createKeywordIndex } from './table-upgrades.ts';
import { openIfExists } from './open-table.ts';

/** The store's options with their defaults applied (see {@link LanceDbStoreOptions}). */
export interface LanceSettings {
  dir: string;
  candidateFloor: number;
  pruneOlderThanMs: number;
  writeBatchSize: number;
  commitLingerMs: number;
  flatSearchCutoff: number;
  searchLagMs: number;
  refreshPacing: CoalescedRunPacing;
  /** The recent rows' refresh: `refreshPacing` spaced at least `recentRefreshIntervalMs`. */
  recentRefreshPacing: CoalescedRunPacing;
  searchIdleAfterMs: number;
  foldAfter: { rows: number; ms: number };
  vectorIndex: VectorIndexPolicy;
}

/** {@link LanceSettings} from the caller's options. */
export function lanceSettings(options: LanceDbStoreOptions): LanceSettings {
  const refreshPacing = options.refreshPacing ?? DEFAULT_REFRESH_PACING;
  const recentInterval = options.recentRefreshIntervalMs ?? DEFAULT_RECENT_REFRESH_INTERVAL_MS;
  validatePacing({ minIntervalMs: recentInterval, maxShare: 1 });
  return {
    dir: options.dir,
    candidateFloor: options.candidateFloor ?? 100,
    pruneOlderThanMs: options.pruneOlderThanMs ?? 3_600_000,
    writeBatchSize: options.writeBatchSize ?? 2000,
    commitLingerMs: options.commitLingerMs ?? DEFAULT_COMMIT_LINGER_MS,
    flatSearchCutoff: options.flatSearchCutoff ?? DEFAULT_FLAT_SEARCH_CUTOFF,
    searchLagMs: options.searchLagMs ?? 0,
    refreshPacing,
    recentRefreshPacing: { ...refreshPacing, minIntervalMs: Math.max(refreshPacing.minIntervalMs, recentInterval) },
    searchIdleAfterMs: options.searchIdleAfterMs ?? DEFAULT_SEARCH_IDLE_AFTER_MS,
    foldAfter: checkFoldAfter(options.foldAfter ?? FOLD_AFTER),
    vectorIndex: options.vectorIndex ?? DEFAULT_VECTOR_INDEX_POLICY,
  };
}

/** A promise-chain mutex (write-guard.ts `createMutex`). */
export type Mutex = <T>(fn: () => Promise<T>) => Promise<T>;

/** Runs `fn`, mapping what LanceDB throws to Quarry's errors (`STORE_UNAVAILABLE`, `STORE_REJECTED`). */
export async function guarded<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw classifyStoreError(err, what);
  }
}

/** The rows a query returns, as plain records. */
export async function rows(query: lancedb.Query | lancedb.VectorQuery): Promise<Record<string, unknown>[]> {
  return (await query.toArray()) as Record<string, unknown>[];
}

/** The store refused the rows themselves (not I/O, not conflicts): one caller's data may be at fault. */
export const isDataError = (err: unknown): boolean => isQuarryError(err) && !err.retryable;

/**
 * The store's connection and its table handles. Handles are cached, absence is not (another
 * process may create a table); a table's vector length never changes (ensureSchema refuses
 * another), so its schema is read once.
 */
export class LanceTables {
  /** Set by `close`: every later open is refused. */
  closed = false;
  private readonly handles = new Map<string, lancedb.Table>();
  private readonly dimensions = new WeakMap<lancedb.Table, number | null>();

  private constructor(
    readonly dir: string,
    private readonly db: lancedb.Connection,
  ) {}

  /**
   * Connects to the database in `dir` (created if missing).
   * @throws RetryableError `STORE_UNAVAILABLE` when the directory cannot be opened.
   */
  static async connect(dir: string): Promise<LanceTables> {
    try {
      return new LanceTables(dir, await lancedb.connect(dir, { readConsistencyInterval: 0 }));
    } catch (err) {
      throw classifyStoreError(err, `connect ${dir}`);
    }
  }

  /** The table if it exists. @throws PermanentError `STORE_REJECTED` once the store is closed. */
  async open(name: string): Promise<lancedb.Table | null> {
    if (this.closed) throw new PermanentError('STORE_REJECTED', 'lancedb store is closed');
    const cached = this.handles.get(name);
    if (cached) return cached;
    const table = await openIfExists(this.db, name);
    if (table) this.handles.set(name, table);
    return table;
  }

  /** The table. @throws PermanentError `STORE_REJECTED` while it does not exist (before ensureSchema). */
  async require(name: string): Promise<lancedb.Table> {
    const table = await this.open(name);
    if (!table) throw new PermanentError('STORE_REJECTED', `lancedb table ${name} does not exist: call ensureSchema first`);
    return table;
  }

  /** Creates the table, or opens the one another process created first. */
  async create(name: string, schema: Schema): Promise<lancedb.Table> {
    try {
      const table = await this.db.createEmptyTable(name, schema, { mode: 'create', existOk: true });
      this.handles.set(name, table);
      return table;
    } catch (err) {
      const table = await this.open(name);
      if (table) return table;
      throw err;
    }
  }

  /** The table's vector length (null for a table without vectors). */
  async dimension(table: lancedb.Table): Promise<number | null> {
    if (!this.dimensions.has(table)) this.dimensions.set(table, dimensionOfSchema(await table.schema()));
    return this.dimensions.get(table) as number | null;
  }

  /** Closes every handle and the connection. */
  close(): void {
    this.closed = true;
    for (const table of this.handles.values()) table.close();
    this.handles.clear();
    this.db.close();
  }
}

/** A search-idle store's writes are still refreshed (compacted) this often, ms: see afterChunkWrite. */
export const SEARCH_IDLE_REFRESH_MS = 10_000;

/**
 * When a searched store folds its recent rows into the chunks table's full-text index (see
 * RECENT_TABLE): once this process has written `rows` rows since its last fold, or its oldest
 * such write is `ms` old, and no sooner than {@link FOLD_SPACING} times the last fold's length
 * after it. Until a fold, every commit since the last one is a small file of the chunks table
 * that no scalar or vector index covers, which every filtered search, filter count and vector
 * search scans, each file ~0.3–0.5 ms of CPU whatever its size (a commit lands about every
 * half second under steady ingest). A fold costs ~1–2 s of CPU at 100k chunks; the recent table
 * it leaves stays small (a refresh of its index costs ~0.1 s at 400 rows and ~0.4 s at 2,000).
 */
export const FOLD_AFTER = { rows: 1_000, ms: 10_000 } as const;

/**
 * A fold is never due sooner than this many times the last fold's length after it ended, so folds
 * take at most about a quarter of a writer's time whatever the table's size (a fold's full-text
 * update grows with the index, and runs longer on a busy machine).
 */
export const FOLD_SPACING = 3;

/**
 * The longest a fold is held back by {@link FOLD_SPACING}, ms: a fold the wall clock saw as hours
 * long (the clock set forward while it ran) must not hold the next one back for hours more.
 */
export const MAX_FOLD_SPACING_MS = 600_000;

/** When the last fold of a process ended (Date.now()) and how long it took, ms. */
export interface LastFold {
  endedAt: number;
  ms: number;
}

/** @throws PermanentError `INVALID_CONFIG` unless `rows` is a positive integer and `ms` a non-negative number. */
export function checkFoldAfter(after: { rows: number; ms: number }): { rows: number; ms: number } {
  if (!(Number.isInteger(after.rows) && after.rows > 0)) throw new PermanentError('INVALID_CONFIG', `fold row count must be a positive integer, got ${after.rows}`);
  if (!(Number.isFinite(after.ms) && after.ms >= 0)) throw new PermanentError('INVALID_CONFIG', `fold age must be a non-negative number of ms, got ${after.ms}`);
  return after;
}

/**
 * True when writes since the last fold (`rows` of them, the first at `since`) call for one at
 * `now`, and the last fold (if any) ended at least {@link FOLD_SPACING} times its length ago (at
 * most {@link MAX_FOLD_SPACING_MS}; a clock set back since it ended holds nothing back).
 */
export function foldDue(unfolded: { rows: number; since: number } | null, now: number, after: { rows: number; ms: number }, last: LastFold | null = null): boolean {
  if (unfolded === null) return false;
  if (last !== null) {
    const sinceLast = now - last.endedAt;
    if (sinceLast >= 0 && sinceLast < Math.min(FOLD_SPACING * last.ms, MAX_FOLD_SPACING_MS)) return false;
  }
  return unfolded.rows >= after.rows || now - unfolded.since >= after.ms;
}

/**
 * Index upkeep: compaction with pruning of old versions, the chunks' full-text index and the
 * recent rows beside it (see RECENT_TABLE). Two coalesced runs under the write lock (see
 * {@link createCoalescedRun}), each request resolving once a run that began after it has run:
 * - the **fold**: the chunks table's `optimize()`, which takes every row committed before it
 *   began into every index, then the deletion of the recent rows added before it began;
 * - the **recent refresh**: the recent table's `optimize()`, a small index's update.
 * While the store is search-idle (see search-activity.ts) nothing is refreshed after a write;
 * the fold waits for the next search of this process, the next write after any process searched,
 * `maintain()` or close, and still runs every SEARCH_IDLE_REFRESH_MS.
 */
export class LanceIndexUpkeep {
  /** True once the chunks table's full-text index is known to exist (it is never dropped). */
  private ftsIndexSeen = false;
  private readonly folds: CoalescedRun<lancedb.Table>;
  private readonly recentRefreshes: CoalescedRun<lancedb.Table>;
  /** The table whose writes' fold waits for a search (null when none does). */
  private deferred: lancedb.Table | null = null;
  /** When the first write of those waiting was made (Date.now()). */
  private deferredSince: number | null = null;
  /** Rows this process wrote since its last fold began, and when the first of them was (null: none). */
  private unfolded: { rows: number; since: number } | null = null;
  /** The chunks table this process last wrote (what closing folds). */
  private written: lancedb.Table | null = null;
  /** This process's last fold (null before the first): spaces the next (see foldDue). */
  private lastFold: LastFold | null = null;

  /** @param recentTable the recent rows' table (null for a store that has none yet: the chunks table alone is then folded). */
  constructor(
    lock: Mutex,
    private readonly settings: Pick<LanceSettings, 'pruneOlderThanMs' | 'refreshPacing' | 'recentRefreshPacing' | 'searchIdleAfterMs' | 'foldAfter'>,
    private readonly activity: SearchActivity,
    private readonly recentTable: () => Promise<lancedb.Table | null> = async () => null,
  ) {
    this.folds = createCoalescedRun(lock, (table: lancedb.Table) => withConflictRetry('index refresh', () => this.refreshText(table)), settings.refreshPacing);
    this.recentRefreshes = createCoalescedRun(lock, (recent: lancedb.Table) => withConflictRetry('recent index refresh', () => this.refreshRecent(recent)), settings.recentRefreshPacing);
  }

  /** Compacts files, updates every index and prunes versions older than the pruning age. */
  async optimize(table: lancedb.Table): Promise<void> {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - this.settings.pruneOlderThanMs) });
  }

  /**
   * The fold: builds the full-text index on first use, else takes every unindexed row into it
   * (with `compact`, compacts and prunes even when there is none);
   * then drops the recent rows added before it began, which the index now covers (each was
   * added after its chunks-table commit).
   */
  async refreshText(table: lancedb.Table, opts: { compact?: boolean } = {}): Promise<void> {
    // Whatever was committed before this fold began, a deferred one included, is taken in.
    if (this.deferred === table) this.clearDeferred();
    this.unfolded = null;
    const startedAt = new Date();
    try {
      const stats = await table.indexStats(FTS_INDEX);
      if (!stats) await createKeywordIndex(table);
      else if (opts.compact || stats.numUnindexedRows > 0) await this.optimize(table);
      const recent = await this.recentTable();
      if (recent) await recent.delete(`${ADDED_AT_COLUMN} < TIMESTAMP '${startedAt.toISOString()}'`);
    } finally {
      const endedAt = Date.now();
      this.lastFold = { endedAt, ms: endedAt - startedAt.getTime() };
    }
  }

  /** Takes the recent table's unindexed rows into its own (small) full-text index. */
  async refreshRecent(recent: lancedb.Table): Promise<void> {
    const stats = await recent.indexStats(FTS_INDEX);
    if (stats && stats.numUnindexedRows > 0) await this.optimize(recent);
  }

  /**
   * After a commit of `rows` chunk rows (and their recent rows). The first one builds the
   * full-text index and is waited for: a keyword search needs it. Later ones only ask for
   * refreshes in the background, none waited for: a recent refresh after each, and a fold when
   * {@link foldDue}. A committed row is searchable at once either way: LanceDB scans the rows an
   * index has not taken in yet. A failed background run leaves rows to the scan until the next.
   * On a search-idle store the fold is deferred ({@link searched}).
   */
  async afterChunkWrite(table: lancedb.Table, rows = 0): Promise<void> {
    const now = Date.now();
    this.written = table;
    this.unfolded = { rows: (this.unfolded?.rows ?? 0) + rows, since: this.unfolded?.since ?? now };
    this.ftsIndexSeen ||= (await table.indexStats(FTS_INDEX)) !== undefined;
    if (!this.ftsIndexSeen) {
      await this.folds.request(table);
      this.ftsIndexSeen = true;
    } else if (this.settings.searchIdleAfterMs > 0 && isSearchIdle(await this.activity.sinceLastSearch(), this.settings.searchIdleAfterMs)) {
      // Still at most one fold per SEARCH_IDLE_REFRESH_MS: each commit leaves a small file that
      // counts and merge-inserts read until a compaction (a bulk load made ~60 in 20 s).
      this.deferredSince ??= now;
      if (now - this.deferredSince >= SEARCH_IDLE_REFRESH_MS) this.requestNow(table);
      else this.deferred = table;
    } else {
      const recent = await this.recentTable();
      // Without recent rows, searches scan what the chunks table's index lacks: fold behind every write.
      if (!recent || foldDue(this.unfolded, now, this.settings.foldAfter, this.lastFold)) this.requestNow(table);
      else this.recentRefreshes.request(recent).catch(() => undefined);
    }
  }

  /** A search ran in this process: it is recorded, and a fold deferred while the store was search-idle is asked for. */
  searched(): void {
    this.activity.mark();
    if (this.deferred) this.requestNow(this.deferred);
  }

  /**
   * Resolves once the runs requested so far have settled, and a fold of what this process wrote
   * since its last one (for closing the store: it leaves its rows in the chunks table's index).
   */
  async settled(): Promise<void> {
    const table = this.deferred ?? (this.unfolded ? this.written : null);
    if (table) this.requestNow(table);
    await Promise.all([this.folds.settled(), this.recentRefreshes.settled()]);
  }

  private requestNow(table: lancedb.Table): void {
    this.clearDeferred();
    this.folds.request(table).catch(() => undefined);
  }

  private clearDeferred(): void {
    this.deferred = null;
    this.deferredSince = null;
  }
}

/** What every part of the LanceDB store shares. */
export interface LanceStoreState {
  readonly settings: LanceSettings;
  readonly tables: LanceTables;
  /** The write lock: this process's writes run one at a time. */
  readonly lock: Mutex;
  /** The chunks table as searches read it (see search-view.ts). */
  readonly searchView: SearchView;
  /** The recent rows' table (RECENT_TABLE) as searches read it. */
  readonly recentView: SearchView;
  /** Search results and counts remembered per table version (see hybrid-search.ts). */
  readonly caches: SearchCaches;
  readonly upkeep: LanceIndexUpkeep;
}

/** After a commit of this process: its searches see it from now on, in both tables they read. */
export function advanceSearchViews(s: Pick<LanceStoreState, 'searchView' | 'recentView'>): void {
  s.searchView.advance();
  s.recentView.advance();
}
