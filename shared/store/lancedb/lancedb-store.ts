import * as lancedb from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { isQuarryError, PermanentError } from '../../errors.ts';
import type { DocumentRecord } from '../../domain/document.ts';
import type { Filter } from '../filter.ts';
import {
  type AggregateBucket,
  type AggregateField,
  type HybridHit,
  type HybridQuery,
  type StoredChunk,
  type VectorStore,
} from '../vector-store.ts';
import { checkModel, type EmbedderRecord } from '../embedder-record.ts';
import { scanChunkTable } from './chunk-scan.ts';
import { ensureEmbedderRecord, META_TABLE, metaSchema, readEmbedderRecord } from './embedder-table.ts';
import { upgradeChunksTable, upgradeDocumentsTable } from './table-upgrades.ts';
import { ensureLanceCpuThreads } from './cpu-threads.ts';
import { createFacetTableOps, ensureFacetTable } from './facet-table.ts';
import { filterToSql, sqlString } from './filter-sql.ts';
import { countMatching, createSearchCaches, hybridSearch, readRowsById } from './hybrid-search.ts';
import {
  CHUNK_COLUMNS,
  CHUNKS_TABLE,
  DOCUMENTS_TABLE,
  FTS_COLUMN,
  FTS_INDEX,
  chunksToArrow,
  chunksSchema,
  dimensionOfSchema,
  documentToRow,
  documentsSchema,
  rowToChunk,
  rowToDocument,
  rowVector,
} from './schema.ts';
import { checkAggregateField, checkDimension, checkScanFields, checkHybridQuery, checkVector, sortBuckets, validChunks, validDocuments } from '../validation.ts';
import { buildVectorIndex, DEFAULT_FLAT_SEARCH_CUTOFF, DEFAULT_VECTOR_INDEX_POLICY, vectorIndexAction, vectorIndexOf } from './vector-index.ts';
import { openSearchView } from './search-view.ts';
import { classifyStoreError, createCoalescedRun, createGroupCommit, createMutex, withConflictRetry } from './write-guard.ts';
import { DEFAULT_REFRESH_PACING, type LanceDbStoreOptions } from './store-options.ts';

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
 */
export async function createLanceDbStore(options: LanceDbStoreOptions): Promise<LanceDbStore> {
  const candidateFloor = options.candidateFloor ?? 100;
  const pruneOlderThanMs = options.pruneOlderThanMs ?? 3_600_000;
  const writeBatchSize = options.writeBatchSize ?? 2000;
  const flatSearchCutoff = options.flatSearchCutoff ?? DEFAULT_FLAT_SEARCH_CUTOFF;
  const caches = createSearchCaches();
  // Before any LanceDB work: on 2-core hosts its default CPU pool deadlocks full-text index writes.
  ensureLanceCpuThreads();
  let db: lancedb.Connection;
  try {
    db = await lancedb.connect(options.dir, { readConsistencyInterval: 0 });
  } catch (err) {
    throw classifyStoreError(err, `connect ${options.dir}`);
  }
  const tables = new Map<string, lancedb.Table>();
  const searchView = openSearchView(options.dir, CHUNKS_TABLE, options.searchLagMs ?? 0, () => openTable(CHUNKS_TABLE));
  const lock = createMutex();
  let closed = false;

  /** The table if it exists; handles are cached, absence is not (another process may create it). */
  async function openTable(name: string): Promise<lancedb.Table | null> {
    if (closed) throw new PermanentError('STORE_REJECTED', 'lancedb store is closed');
    const cached = tables.get(name);
    if (cached) return cached;
    if (!(await db.tableNames()).includes(name)) return null;
    let table: lancedb.Table;
    try {
      table = await db.openTable(name);
    } catch (err) {
      // Listed while another writer is still creating it (its folder made, no version committed
      // yet): not there yet, as for a reader that looked a moment earlier.
      if (/not found/i.test(err instanceof Error ? err.message : String(err))) return null;
      throw err;
    }
    tables.set(name, table);
    return table;
  }

  async function requireTable(name: string): Promise<lancedb.Table> {
    const table = await openTable(name);
    if (!table) throw new PermanentError('STORE_REJECTED', `lancedb table ${name} does not exist: call ensureSchema first`);
    return table;
  }

  async function createTable(name: string, schema: Schema): Promise<lancedb.Table> {
    try {
      const table = await db.createEmptyTable(name, schema, { mode: 'create', existOk: true });
      tables.set(name, table);
      return table;
    } catch (err) {
      // Another process won the race to create it: open theirs.
      const table = await openTable(name);
      if (table) return table;
      throw err;
    }
  }

  /** A table's vector length never changes (ensureSchema refuses another): read its schema once. */
  const dimensions = new WeakMap<lancedb.Table, number | null>();
  /** The embedder record once read (see embedder-table.ts). */
  let recorded: EmbedderRecord | null = null;
  async function tableDimension(table: lancedb.Table): Promise<number | null> {
    if (!dimensions.has(table)) dimensions.set(table, dimensionOfSchema(await table.schema()));
    return dimensions.get(table) as number | null;
  }

  async function optimizeNow(table: lancedb.Table): Promise<void> {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - pruneOlderThanMs) });
  }

  /** Builds the full-text index on first use, else folds every unindexed row into it. */
  async function refreshFtsIndex(table: lancedb.Table): Promise<void> {
    const stats = await table.indexStats(FTS_INDEX);
    if (!stats) await table.createIndex(FTS_COLUMN, { config: lancedb.Index.fts(), name: FTS_INDEX, replace: false });
    else if (stats.numUnindexedRows > 0) await optimizeNow(table);
  }

  /**
   * Full-text index refreshes after writes, coalesced under the write lock (see
   * {@link createCoalescedRun}): a request resolves once a refresh that began after it has run.
   */
  const refreshes = createCoalescedRun(
    lock,
    (table: lancedb.Table) => withConflictRetry('index refresh', () => refreshFtsIndex(table)),
    options.refreshPacing ?? DEFAULT_REFRESH_PACING,
  );
  /** True once the chunks table's full-text index is known to exist (it is never dropped). */
  let ftsIndexSeen = false;

  /**
   * After a chunk commit. The first one builds the full-text index and is waited for: a keyword
   * search needs the index. Later ones only ask for a refresh in the background: LanceDB searches
   * the rows its index has not folded in yet by scanning them, so a write is searchable once
   * committed, and one paced refresh (a compaction of the table plus an update of every index,
   * whose cost follows the table) serves every commit made before it began. A failed background
   * refresh leaves rows unindexed, still found by the scan, until the next write's or `maintain()`.
   */
  async function indexAfterWrite(table: lancedb.Table): Promise<void> {
    ftsIndexSeen ||= (await table.indexStats(FTS_INDEX)) !== undefined;
    if (!ftsIndexSeen) {
      await refreshes.request(table);
      ftsIndexSeen = true;
    } else {
      refreshes.request(table).catch(() => undefined);
    }
  }

  /** Validates and translates before any I/O, so a bad filter fails as INVALID_PAYLOAD. */
  function where(filter: Filter | undefined): string | undefined {
    return filterToSql(filter);
  }

  async function rows(query: lancedb.Query | lancedb.VectorQuery): Promise<Record<string, unknown>[]> {
    return (await query.toArray()) as Record<string, unknown>[];
  }

  async function guarded<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw classifyStoreError(err, what);
    }
  }

  const facetOps = createFacetTableOps({ openTable, lock, guarded, optimize: optimizeNow });

  /** The store refused the rows themselves (not I/O, not conflicts): one caller's data may be at fault. */
  const isDataError = (err: unknown) => isQuarryError(err) && !err.retryable;

  /**
   * Document rows of concurrent callers, one merge-insert commit per batch (each commit adds a
   * version and a data file; per document that was one commit each).
   */
  const commitDocuments = createGroupCommit<DocumentRecord>({
    keyOf: (doc) => doc.doc_id,
    maxRows: writeBatchSize,
    schedule: lock,
    isDataError,
    commit: async (docs) => {
      const table = await guarded('upsertDocuments', () => requireTable(DOCUMENTS_TABLE));
      const data = await guarded('upsertDocuments', async () => lancedb.makeArrowTable(docs.map(documentToRow), { schema: documentsSchema }));
      await withConflictRetry('upsertDocuments', () => table.mergeInsert('doc_id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data));
    },
  });

  /**
   * Chunk rows of concurrent callers (documents upserted by parallel jobs), one merge-insert
   * commit per batch of up to `writeBatchSize` rows; the index catches up in the background.
   */
  const commitChunks = createGroupCommit<StoredChunk>({
    keyOf: (chunk) => chunk.chunk_id,
    maxRows: writeBatchSize,
    schedule: lock,
    isDataError,
    commit: async (all) => {
      const table = await guarded('upsertChunks', () => requireTable(CHUNKS_TABLE));
      const dimension = (await guarded('upsertChunks', () => tableDimension(table))) as number;
      for (let start = 0; start < all.length; start += writeBatchSize) {
        const data = await guarded('upsertChunks', async () => chunksToArrow(all.slice(start, start + writeBatchSize), dimension));
        await withConflictRetry('upsertChunks', () =>
          table.mergeInsert('chunk_id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data),
        );
      }
    },
    afterCommit: async () => {
      const table = await guarded('refresh index', () => requireTable(CHUNKS_TABLE));
      await guarded('refresh index', () => indexAfterWrite(table));
      await guarded('refresh index', () => searchView.advance());
    },
  });

  return {
    ...facetOps,

    async ensureSchema({ dimension, model }) {
      checkDimension(dimension);
      checkModel(model);
      await lock(() =>
        withConflictRetry('ensureSchema', async () => {
          const chunks = (await openTable(CHUNKS_TABLE)) ?? (await createTable(CHUNKS_TABLE, chunksSchema(dimension)));
          const existing = await tableDimension(chunks);
          if (existing !== dimension) {
            throw new PermanentError('DIMENSION_MISMATCH', `store has dimension ${existing}, asked for ${dimension}`);
          }
          // Before any upgrade: a store of another embedder is left exactly as it was.
          const meta = (await openTable(META_TABLE)) ?? (await createTable(META_TABLE, metaSchema));
          await ensureEmbedderRecord(meta, () => chunks.countRows(), { model, dimension }, `LanceDB at ${options.dir}`);
          await upgradeChunksTable(chunks);
          await upgradeDocumentsTable((await openTable(DOCUMENTS_TABLE)) ?? (await createTable(DOCUMENTS_TABLE, documentsSchema)));
          await ensureFacetTable(openTable, createTable, dimension);
        }),
      );
    },

    async embedderRecord() {
      if (recorded) return recorded;
      return guarded('embedderRecord', async () => {
        const meta = await openTable(META_TABLE);
        // A record never changes once written: keep it, but not its absence (ensureSchema may add it).
        recorded = meta ? await readEmbedderRecord(meta) : null;
        return recorded;
      });
    },

    async dimension() {
      return guarded('dimension', async () => {
        const table = await openTable(CHUNKS_TABLE);
        return table ? tableDimension(table) : null;
      });
    },

    // Each call is validated on its own before it joins a batch, so a malformed row fails its
    // caller with a clear error and never the other callers sharing the commit.
    async upsertDocuments(docs) {
      if (docs.length === 0) return;
      const valid = validDocuments(docs);
      await guarded('upsertDocuments', () => requireTable(DOCUMENTS_TABLE));
      await commitDocuments.submit(valid);
    },

    async upsertChunks(chunks) {
      if (chunks.length === 0) return;
      const table = await guarded('upsertChunks', () => requireTable(CHUNKS_TABLE));
      const dimension = (await guarded('upsertChunks', () => tableDimension(table))) as number;
      // One row per id (merge-insert refuses duplicate source keys); the batch dedupes across calls.
      await commitChunks.submit(validChunks(chunks, dimension));
    },

    async deleteByDoc(docId, opts = {}) {
      const predicate =
        `doc_id = ${sqlString(docId)}` + (opts.exceptVersion !== undefined ? ` AND version <> ${sqlString(opts.exceptVersion)}` : '');
      return lock(async () => {
        const chunks = await guarded('deleteByDoc', () => openTable(CHUNKS_TABLE));
        let deletedChunks = 0;
        if (chunks) {
          const result = await withConflictRetry('deleteByDoc', () => chunks.delete(predicate));
          deletedChunks = result.numDeletedRows;
          await guarded('deleteByDoc', () => searchView.advance());
        }
        if (opts.exceptVersion === undefined) {
          const documents = await guarded('deleteByDoc', () => openTable(DOCUMENTS_TABLE));
          if (documents) await withConflictRetry('deleteByDoc', () => documents.delete(`doc_id = ${sqlString(docId)}`));
        }
        return { deletedChunks };
      });
    },

    async hybrid(q: HybridQuery): Promise<HybridHit[]> {
      checkHybridQuery(q);
      const sql = where(q.filter);
      const table = await guarded('hybrid', () => searchView.table());
      if (!table) return [];
      const dimension = (await guarded('hybrid', () => tableDimension(table))) as number;
      checkVector(q.vector, dimension, 'query vector');
      return guarded('hybrid', () =>
        hybridSearch(table, { ...q, where: sql, candidates: Math.max(q.limit, candidateFloor), flatSearchCutoff, caches }),
      );
    },

    async aggregate({ groupBy, filter }): Promise<AggregateBucket[]> {
      checkAggregateField(groupBy);
      const sql = where(filter);
      return guarded('aggregate', async () => {
        const table = await searchView.table();
        if (!table) return [];
        // LanceDB has no GROUP BY; one projected column streamed and counted here is cheap.
        let query = table.query().select([groupBy satisfies AggregateField]);
        if (sql) query = query.where(sql);
        const counts = new Map<string, number>();
        for await (const batch of query) {
          const column = batch.getChild(groupBy);
          if (!column) continue;
          for (const value of column) {
            const key = String(value);
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        return sortBuckets([...counts].map(([value, count]) => ({ value, count })));
      });
    },

    async fetchByIds(ids) {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return [];
      return guarded('fetchByIds', async () => {
        const table = await openTable(CHUNKS_TABLE);
        if (!table) return [];
        const found = await readRowsById(table, wanted, [...CHUNK_COLUMNS, 'vector']);
        return wanted.flatMap((id): StoredChunk[] => {
          const row = found.get(id);
          return row ? [{ ...rowToChunk(row), vector: rowVector(row) }] : [];
        });
      });
    },

    async getDocument(docId) {
      return guarded('getDocument', async () => {
        const table = await openTable(DOCUMENTS_TABLE);
        if (!table) return null;
        const [row] = await rows(table.query().where(`doc_id = ${sqlString(docId)}`).limit(1));
        return row ? rowToDocument(row) : null;
      });
    },

    async countChunks(filter) {
      const sql = where(filter);
      return guarded('countChunks', async () => {
        const table = await openTable(CHUNKS_TABLE);
        return table ? countMatching(table, sql, caches.at(await table.version()).counts) : 0;
      });
    },

    async listChunkIds(docId) {
      return guarded('listChunkIds', async () => {
        const table = await openTable(CHUNKS_TABLE);
        if (!table) return [];
        const found = await rows(table.query().where(`doc_id = ${sqlString(docId)}`).select(['chunk_id', 'version']));
        return found
          .map((r) => ({ chunk_id: String(r.chunk_id), version: String(r.version) }))
          .sort((a, b) => (a.chunk_id < b.chunk_id ? -1 : a.chunk_id > b.chunk_id ? 1 : 0));
      });
    },

    async *scanChunks(q) {
      checkScanFields(q.fields);
      const sql = where(q.filter);
      const table = await guarded('scanChunks', () => openTable(CHUNKS_TABLE));
      if (table) yield* scanChunkTable(table, q, sql);
    },

    async optimize() {
      const table = await guarded('optimize', () => requireTable(CHUNKS_TABLE));
      await lock(() => withConflictRetry('optimize', () => optimizeNow(table)));
      await guarded('optimize', () => searchView.advance());
    },

    async maintain() {
      const t0 = performance.now();
      const seconds = () => Math.round(performance.now() - t0) / 1000;
      // Each upsertDocuments (one per ingested document) adds a file: compact them into doc_id's index.
      const documents = await guarded('maintain', () => openTable(DOCUMENTS_TABLE));
      if (documents) await lock(() => withConflictRetry('maintain', () => optimizeNow(documents)));
      const table = await guarded('maintain', () => openTable(CHUNKS_TABLE));
      if (!table) return { vectorIndex: 'exact', reason: 'no chunks yet', seconds: seconds() };
      // Now, not paced: rows a failed or still pending background refresh left out of the index.
      await lock(() => withConflictRetry('maintain', () => refreshFtsIndex(table)));
      const state = await guarded('maintain', async () => ({ rows: await table.countRows(), index: vectorIndexOf(await table.listIndices()) }));
      const { action, reason } = vectorIndexAction(state, options.vectorIndex ?? DEFAULT_VECTOR_INDEX_POLICY);
      if (action === 'none') return { vectorIndex: state.index ? 'current' : 'exact', reason, seconds: seconds() };
      // Not under the write lock: the build takes tens of seconds and commits alongside writes
      // (their rows stay unindexed, and exactly searched, until their own refresh folds them in).
      await withConflictRetry('maintain', () => buildVectorIndex(table));
      // LanceDB compacts no files while delta segments cover them; with one segment again, this
      // optimize compacts what writes left (~35 s at 100k), so no write's refresh waits for it.
      await lock(() => withConflictRetry('maintain', () => optimizeNow(table)));
      await guarded('maintain', () => searchView.advance());
      return { vectorIndex: action === 'build' ? 'built' : 'rebuilt', reason, seconds: seconds() };
    },

    async close() {
      if (closed) return;
      // Let queued writes and index refreshes finish before the handles go away.
      await Promise.all([commitDocuments.drain(), commitChunks.drain()]);
      await refreshes.settled();
      await lock(async () => undefined);
      closed = true;
      for (const table of tables.values()) table.close();
      tables.clear();
      searchView.close();
      db.close();
    },
  };
}
