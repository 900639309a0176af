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
import { DEFAULT_COMMIT_LINGER_MS, DEFAULT_REFRESH_PACING, DEFAULT_SEARCH_IDLE_AFTER_MS, type LanceDbStoreOptions } from './store-options.ts';
import { DEFAULT_FLAT_SEARCH_CUTOFF, DEFAULT_VECTOR_INDEX_POLICY, type VectorIndexPolicy } from './vector-index.ts';
import { classifyStoreError, createCoalescedRun, withConflictRetry, type CoalescedRun, type CoalescedRunPacing } from './write-guard.ts';
import { FTS_COLUMN, FTS_INDEX, dimensionOfSchema } from './schema.ts';

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
  searchIdleAfterMs: number;
  vectorIndex: VectorIndexPolicy;
}

/** {@link LanceSettings} from the caller's options. */
export function lanceSettings(options: LanceDbStoreOptions): LanceSettings {
  return {
    dir: options.dir,
    candidateFloor: options.candidateFloor ?? 100,
    pruneOlderThanMs: options.pruneOlderThanMs ?? 3_600_000,
    writeBatchSize: options.writeBatchSize ?? 2000,
    commitLingerMs: options.commitLingerMs ?? DEFAULT_COMMIT_LINGER_MS,
    flatSearchCutoff: options.flatSearchCutoff ?? DEFAULT_FLAT_SEARCH_CUTOFF,
    searchLagMs: options.searchLagMs ?? 0,
    refreshPacing: options.refreshPacing ?? DEFAULT_REFRESH_PACING,
    searchIdleAfterMs: options.searchIdleAfterMs ?? DEFAULT_SEARCH_IDLE_AFTER_MS,
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
    if (!(await this.db.tableNames()).includes(name)) return null;
    let table: lancedb.Table;
    try {
      table = await this.db.openTable(name);
    } catch (err) {
      // Listed while another writer is still creating it (its folder made, no version committed
      // yet): not there yet, as for a reader that looked a moment earlier.
      if (/not found/i.test(err instanceof Error ? err.message : String(err))) return null;
      throw err;
    }
    this.handles.set(name, table);
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
 * Index upkeep: compaction with pruning of old versions, and the chunks' full-text index, whose
 * refreshes after writes are coalesced under the write lock (see {@link createCoalescedRun}): a
 * request resolves once a refresh that began after it has run. While the store is search-idle
 * (see search-activity.ts) a write's refresh is deferred to the next search of this process, the
 * next write after any process searched, `maintain()` or close.
 */
export class LanceIndexUpkeep {
  /** True once the chunks table's full-text index is known to exist (it is never dropped). */
  private ftsIndexSeen = false;
  private readonly refreshes: CoalescedRun<lancedb.Table>;
  /** The table whose writes' refresh waits for a search (null when none does). */
  private deferred: lancedb.Table | null = null;
  /** When the first write of those waiting was made (Date.now()). */
  private deferredSince: number | null = null;

  constructor(
    lock: Mutex,
    private readonly settings: Pick<LanceSettings, 'pruneOlderThanMs' | 'refreshPacing' | 'searchIdleAfterMs'>,
    private readonly activity: SearchActivity,
  ) {
    this.refreshes = createCoalescedRun(lock, (table: lancedb.Table) => withConflictRetry('index refresh', () => this.refreshText(table)), settings.refreshPacing);
  }

  /** Compacts files, updates every index and prunes versions older than the pruning age. */
  async optimize(table: lancedb.Table): Promise<void> {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - this.settings.pruneOlderThanMs) });
  }

  /** Builds the full-text index on first use, else folds every unindexed row into it. */
  async refreshText(table: lancedb.Table): Promise<void> {
    // Whatever was committed before this refresh began, a deferred one included, is folded in.
    if (this.deferred === table) this.clearDeferred();
    const stats = await table.indexStats(FTS_INDEX);
    if (!stats) await table.createIndex(FTS_COLUMN, { config: lancedb.Index.fts(), name: FTS_INDEX, replace: false });
    else if (stats.numUnindexedRows > 0) await this.optimize(table);
  }

  /**
   * After a chunk commit. The first one builds the full-text index and is waited for: a keyword
   * search needs the index. Later ones only ask for a refresh in the background: LanceDB searches
   * the rows its index has not folded in yet by scanning them, so a write is searchable once
   * committed, and one paced refresh (a compaction of the table plus an update of every index,
   * whose cost follows the table) serves every commit made before it began. A failed background
   * refresh leaves rows unindexed, still found by the scan, until the next write's or `maintain()`.
   * On a search-idle store the request is deferred ({@link searched}).
   */
  async afterChunkWrite(table: lancedb.Table): Promise<void> {
    this.ftsIndexSeen ||= (await table.indexStats(FTS_INDEX)) !== undefined;
    if (!this.ftsIndexSeen) {
      await this.refreshes.request(table);
      this.ftsIndexSeen = true;
    } else if (this.settings.searchIdleAfterMs > 0 && isSearchIdle(await this.activity.sinceLastSearch(), this.settings.searchIdleAfterMs)) {
      // Still at most one refresh per SEARCH_IDLE_REFRESH_MS: each commit leaves a small file that
      // counts and merge-inserts read until a compaction (a bulk load made ~60 in 20 s).
      const now = Date.now();
      this.deferredSince ??= now;
      if (now - this.deferredSince >= SEARCH_IDLE_REFRESH_MS) this.requestNow(table);
      else this.deferred = table;
    } else {
      this.requestNow(table);
    }
  }

  /** A search ran in this process: it is recorded, and a refresh deferred while the store was search-idle is asked for. */
  searched(): void {
    this.activity.mark();
    if (this.deferred) this.requestNow(this.deferred);
  }

  /** Resolves once the refreshes requested so far, and a deferred one, have settled (for closing the store). */
  settled(): Promise<void> {
    if (this.deferred) this.requestNow(this.deferred);
    return this.refreshes.settled();
  }

  private requestNow(table: lancedb.Table): void {
    this.clearDeferred();
    this.refreshes.request(table).catch(() => undefined);
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
  /** Search results and counts remembered per table version (see hybrid-search.ts). */
  readonly caches: SearchCaches;
  readonly upkeep: LanceIndexUpkeep;
}
