/**
 * The embedded LanceDB vector store: one directory, one connection, four parts sharing it
 * (lance-state.ts): the chunk index (lance-chunk-index.ts), the document table
 * (lance-document-table.ts), the facet values (facet-table.ts) and the store admin
 * (lance-store-admin.ts).
 */
import { composeVectorStore, type VectorStore } from '../vector-store.ts';
import { ensureLanceCpuThreads } from './cpu-threads.ts';
import { createFacetTableOps } from './facet-table.ts';
import { createSearchCaches } from './hybrid-search.ts';
import { LanceChunkIndex } from './lance-chunk-index.ts';
import { LanceDocumentTable } from './lance-document-table.ts';
import { guarded, lanceSettings, LanceIndexUpkeep, LanceTables, type LanceStoreState } from './lance-state.ts';
import { LanceStoreAdmin } from './lance-store-admin.ts';
import { CHUNKS_TABLE, RECENT_TABLE } from './schema.ts';
import { fileSearchActivity } from './search-activity.ts';
import { openSearchView } from './search-view.ts';
import type { LanceDbStoreOptions } from './store-options.ts';
import { createMutex } from './write-guard.ts';

export { DEFAULT_REFRESH_PACING, type LanceDbStoreOptions } from './store-options.ts';

/** The LanceDB store: the port plus explicit maintenance for CLIs, benchmarks and tests. */
export interface LanceDbStore extends VectorStore {
  /**
   * Folds every unindexed row into the full-text index, compacts files and prunes old versions
   * now, instead of waiting for the background trigger. Waits for queued writes first.
   * @throws RetryableError `STORE_UNAVAILABLE` on I/O failure or persistent commit conflicts.
   */
  optimize(): Promise<void>;
}

/**
 * Opens (or prepares) an embedded LanceDB store in `options.dir`. Tables are created by
 * `ensureSchema`; until then reads return nothing and writes are rejected.
 *
 * @throws RetryableError `STORE_UNAVAILABLE` when the directory cannot be opened.
 * @throws PermanentError `INVALID_CONFIG` for a negative search lag, a malformed refresh pacing or fold threshold.
 */
export async function createLanceDbStore(options: LanceDbStoreOptions): Promise<LanceDbStore> {
  const settings = lanceSettings(options);
  const caches = createSearchCaches();
  // Before any LanceDB work: on 2-core hosts its default CPU pool deadlocks full-text index writes.
  ensureLanceCpuThreads();
  const tables = await LanceTables.connect(settings.dir);
  const lock = createMutex();
  const state: LanceStoreState = {
    settings,
    tables,
    lock,
    searchView: openSearchView(settings.dir, CHUNKS_TABLE, settings.searchLagMs, () => tables.open(CHUNKS_TABLE)),
    recentView: openSearchView(settings.dir, RECENT_TABLE, settings.searchLagMs, () => tables.open(RECENT_TABLE)),
    caches,
    upkeep: new LanceIndexUpkeep(lock, settings, fileSearchActivity(settings.dir), () => tables.open(RECENT_TABLE)),
  };
  const documents = new LanceDocumentTable(state);
  const chunks = new LanceChunkIndex(state, documents);
  const facets = createFacetTableOps({ openTable: (name) => tables.open(name), lock, guarded, optimize: (table) => state.upkeep.optimize(table) });
  const admin = new LanceStoreAdmin(state, async () => void (await Promise.all([documents.drain(), chunks.drain()])));
  return { ...composeVectorStore({ chunks, documents, facets, admin }), optimize: () => admin.optimize() };
}
