import type * as lancedb from '@lancedb/lancedb';
import type { ChunkField, ChunkIndex, AggregateBucket, AggregateField, HybridHit, HybridQuery, ScanQuery, ScannedChunk, StoredChunk } from '../chunk-index.ts';
import type { Filter } from '../filter.ts';
import { checkAggregateField, checkHybridQuery, checkScanFields, checkVector, sortBuckets, validChunks } from '../validation.ts';
import { scanChunkTable } from './chunk-scan.ts';
import { DocChunkCounts, rowsPerDoc } from './doc-counts.ts';
import { filterToSql, sqlString } from './filter-sql.ts';
import { countMatching, hybridSearch, readRowsById } from './hybrid-search.ts';
import type { LanceDocumentTable } from './lance-document-table.ts';
import { advanceSearchViews, guarded, isDataError, rows, type LanceStoreState } from './lance-state.ts';
import { CHUNK_COLUMNS, CHUNKS_TABLE, RECENT_TABLE, chunksToArrow, recentToArrow, rowToChunk, rowVector } from './schema.ts';
import { createGroupCommit, withConflictRetry, type GroupCommit } from './write-guard.ts';

const byChunkId = (a: { chunk_id: string }, b: { chunk_id: string }) => (a.chunk_id < b.chunk_id ? -1 : a.chunk_id > b.chunk_id ? 1 : 0);

/** Rows per value of `column` among those `query` reads: LanceDB has no GROUP BY, and one projected column streamed and counted here is cheap. */
async function countByValue(query: lancedb.Query, column: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const batch of query.select([column])) {
    const values = batch.getChild(column);
    if (!values) continue;
    for (const value of values) {
      const key = String(value);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * The chunk index on LanceDB: the `chunks` table with its full-text, scalar and (once large
 * enough) vector indexes. Searches and aggregates read through the search view; counts, reads by
 * id and scans read the fresh handle (what writers decide on).
 */
export class LanceChunkIndex implements ChunkIndex {
  /**
   * Chunk rows of concurrent callers (documents upserted by parallel jobs), one merge-insert
   * commit per batch of up to `writeBatchSize` rows; the index catches up in the background.
   */
  private readonly commits: GroupCommit<StoredChunk>;
  /** Chunks per document, carried across this process's commits (the upsert stage's question). */
  private readonly docCounts = new DocChunkCounts();
  /** This instance has committed chunks: only a writer keeps {@link docCounts} (a reader's would never be carried). */
  private wrote = false;
  /** Rows committed since the last {@link afterCommit} (what the fold policy counts). */
  private committedRows = 0;

  constructor(
    private readonly s: LanceStoreState,
    private readonly documents: LanceDocumentTable,
  ) {
    this.commits = createGroupCommit<StoredChunk>({
      keyOf: (chunk) => chunk.chunk_id,
      maxRows: s.settings.writeBatchSize,
      lingerMs: s.settings.commitLingerMs,
      schedule: s.lock,
      isDataError,
      commit: (all) => this.commit(all),
      afterCommit: () => this.afterCommit(),
    });
  }

  async upsertChunks(chunks: StoredChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    const table = await guarded('upsertChunks', () => this.s.tables.require(CHUNKS_TABLE));
    const dimension = (await guarded('upsertChunks', () => this.s.tables.dimension(table))) as number;
    // Validated per call (a malformed row fails its own caller); one row per id (merge-insert
    // refuses duplicate source keys), the batch dedupes across calls.
    await this.commits.submit(validChunks(chunks, dimension));
  }

  async deleteByDoc(docId: string, opts: { exceptVersion?: string } = {}): Promise<{ deletedChunks: number }> {
    const predicate = `doc_id = ${sqlString(docId)}` + (opts.exceptVersion !== undefined ? ` AND version <> ${sqlString(opts.exceptVersion)}` : '');
    return this.s.lock(async () => {
      const chunks = await guarded('deleteByDoc', () => this.s.tables.open(CHUNKS_TABLE));
      let deletedChunks = 0;
      if (chunks) {
        const result = await withConflictRetry('deleteByDoc', () => chunks.delete(predicate));
        deletedChunks = result.numDeletedRows;
        this.docCounts.deleted(result.version, docId, opts.exceptVersion === undefined);
        // Searches already drop recent rows without a chunk; deleted here, they no longer take a candidate's place.
        const recent = await guarded('deleteByDoc', () => this.s.tables.open(RECENT_TABLE));
        if (recent) await withConflictRetry('deleteByDoc', () => recent.delete(predicate));
        advanceSearchViews(this.s);
      }
      if (opts.exceptVersion === undefined) await this.documents.deleteRow(docId);
      return { deletedChunks };
    });
  }

  async hybrid(q: HybridQuery): Promise<HybridHit[]> {
    checkHybridQuery(q);
    // Validates and translates before any I/O, so a bad filter fails as INVALID_PAYLOAD.
    const where = filterToSql(q.filter);
    this.s.upkeep.searched();
    const { candidateFloor, flatSearchCutoff } = this.s.settings;
    return guarded('hybrid', () =>
      this.s.searchView.read(async (table) => {
        if (!table) return [];
        checkVector(q.vector, (await this.s.tables.dimension(table)) as number, 'query vector');
        return this.s.recentView.read((recent) => hybridSearch(table, { ...q, where, candidates: Math.max(q.limit, candidateFloor), flatSearchCutoff, caches: this.s.caches, recent }));
      }),
    );
  }

  async aggregate({ groupBy, filter }: { groupBy: AggregateField; filter?: Filter }): Promise<AggregateBucket[]> {
    checkAggregateField(groupBy);
    const where = filterToSql(filter);
    this.s.upkeep.searched();
    return guarded('aggregate', () =>
      this.s.searchView.read(async (table) => {
        if (!table) return [];
        const query = table.query();
        const counts = await countByValue(where ? query.where(where) : query, groupBy satisfies AggregateField);
        return sortBuckets([...counts].map(([value, count]) => ({ value, count })));
      }),
    );
  }

  async fetchByIds(ids: string[]): Promise<StoredChunk[]> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return [];
    return guarded('fetchByIds', async () => {
      const table = await this.s.tables.open(CHUNKS_TABLE);
      if (!table) return [];
      const found = await readRowsById(table, wanted, [...CHUNK_COLUMNS, 'vector']);
      return wanted.flatMap((id): StoredChunk[] => {
        const row = found.get(id);
        return row ? [{ ...rowToChunk(row), vector: rowVector(row) }] : [];
      });
    });
  }

  async countChunks(filter?: Filter, opts?: { asSearched?: boolean }): Promise<number> {
    const where = filterToSql(filter);
    if (opts?.asSearched) {
      return guarded('countChunks', () =>
        this.s.searchView.read(async (table) => (table ? countMatching(table, where, this.s.caches.at(await table.version()).counts) : 0)),
      );
    }
    return guarded('countChunks', async () => {
      const table = await this.s.tables.open(CHUNKS_TABLE);
      if (!table) return 0;
      const version = await table.version();
      if (this.wrote && filter?.op === 'eq' && filter.field === 'doc_id') return this.countOfDoc(table, String(filter.value), version, where as string);
      return countMatching(table, where, this.s.caches.at(version).counts);
    });
  }

  /** One document's chunks: from the carried counts, else a scan that rebuilds them, else a count. */
  private async countOfDoc(table: lancedb.Table, docId: string, version: number, where: string): Promise<number> {
    const known = this.docCounts.lookup(docId, version);
    if (known !== undefined) return known;
    if (!this.docCounts.shouldRebuild(version)) return countMatching(table, where, this.s.caches.at(version).counts);
    const counts = await countByValue(table.query(), 'doc_id');
    // The scan read one version at or after `version`: kept only when nothing was committed meanwhile.
    if ((await table.version()) === version) this.docCounts.rebuilt(version, counts);
    return counts.get(docId) ?? 0;
  }

  async listChunkIds(docId: string): Promise<{ chunk_id: string; version: string }[]> {
    return guarded('listChunkIds', async () => {
      const table = await this.s.tables.open(CHUNKS_TABLE);
      if (!table) return [];
      const found = await rows(table.query().where(`doc_id = ${sqlString(docId)}`).select(['chunk_id', 'version']));
      return found.map((r) => ({ chunk_id: String(r.chunk_id), version: String(r.version) })).sort(byChunkId);
    });
  }

  async *scanChunks<F extends ChunkField>(q: ScanQuery<F>): AsyncIterable<ScannedChunk<F>> {
    checkScanFields(q.fields);
    const where = filterToSql(q.filter);
    const table = await guarded('scanChunks', () => this.s.tables.open(CHUNKS_TABLE));
    if (table) yield* scanChunkTable(table, q, where);
  }

  /** Resolves once every batch submitted so far has settled (for closing the store). */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  private async commit(all: StoredChunk[]): Promise<void> {
    const table = await guarded('upsertChunks', () => this.s.tables.require(CHUNKS_TABLE));
    const recent = await guarded('upsertChunks', () => this.s.tables.open(RECENT_TABLE));
    const dimension = (await guarded('upsertChunks', () => this.s.tables.dimension(table))) as number;
    const size = this.s.settings.writeBatchSize;
    for (let start = 0; start < all.length; start += size) {
      const slice = all.slice(start, start + size);
      const data = await guarded('upsertChunks', async () => chunksToArrow(slice, dimension));
      const result = await withConflictRetry('upsertChunks', () => table.mergeInsert('chunk_id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data));
      this.docCounts.committed(result.version, rowsPerDoc(slice));
      this.wrote = true;
      // After the chunks-table commit, so a fold that began before this time has taken the rows in.
      if (recent) {
        const rows = await guarded('upsertChunks', async () => recentToArrow(data, new Date()));
        await withConflictRetry('upsertChunks', () => recent.mergeInsert('chunk_id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows));
      }
    }
    this.committedRows += all.length;
  }

  private async afterCommit(): Promise<void> {
    const table = await guarded('refresh index', () => this.s.tables.require(CHUNKS_TABLE));
    const rows = this.committedRows;
    this.committedRows = 0;
    await guarded('refresh index', () => this.s.upkeep.afterChunkWrite(table, rows));
    advanceSearchViews(this.s);
  }
}
