import * as lancedb from '@lancedb/lancedb';
import { DOC_ID_INDEX, FTS_COLUMN, FTS_INDEX, LINE_PAGES_COLUMN, PAYLOAD_COLUMN, PROFILE_COLUMN, SCALAR_INDEXES, TABLE_COLUMN } from './schema.ts';

/** Builds the full-text index on {@link FTS_COLUMN} that the chunks table and the recent rows' table both carry, configured alike. */
export async function createKeywordIndex(table: lancedb.Table): Promise<void> {
  await table.createIndex(FTS_COLUMN, { config: lancedb.Index.fts(), name: FTS_INDEX, replace: false });
}

async function indexNames(table: lancedb.Table): Promise<Set<string>> {
  return new Set((await table.listIndices()).map((i) => i.name));
}

/**
 * Brings a chunks table up to what this version reads: the full-text index, the scalar indexes,
 * the payload, line-pages and table columns. New tables get them here while empty; stores made before one existed
 * gain it (an added payload column is empty: rows written since fill it, older rows are read
 * from their columns). Every write's optimize() folds new rows into all the indexes. Idempotent.
 */
export async function upgradeChunksTable(chunks: lancedb.Table): Promise<void> {
  const columns = new Set((await chunks.schema()).fields.map((f) => f.name));
  // Nullable utf8 columns of nulls, in chunksSchema's order (payload, line pages, table).
  for (const name of [PAYLOAD_COLUMN, LINE_PAGES_COLUMN, TABLE_COLUMN]) {
    if (!columns.has(name)) await chunks.addColumns([{ name, valueSql: 'CAST(NULL AS STRING)' }]);
  }
  // One listing, not a lookup per index: every upsert job calls ensureSchema.
  const present = await indexNames(chunks);
  if (!present.has(FTS_INDEX)) await createKeywordIndex(chunks);
  for (const index of SCALAR_INDEXES) {
    if (present.has(index.name)) continue;
    const config = index.kind === 'bitmap' ? lancedb.Index.bitmap() : lancedb.Index.btree();
    await chunks.createIndex(index.column, { config, name: index.name, replace: false });
  }
}

/** Gives the recent rows' table (see RECENT_TABLE) its full-text index. Idempotent. */
export async function upgradeRecentTable(recent: lancedb.Table): Promise<void> {
  if (!(await indexNames(recent)).has(FTS_INDEX)) await createKeywordIndex(recent);
}

/**
 * Gives the documents table its B-tree on `doc_id` (answers look up the title of every cited
 * document). Rows written since are found by scan until maintain() compacts the table and folds
 * them in. A table made before document profiles gains the (empty) profile column: rows
 * written since fill it, older rows read as having no profile until ingested again. Idempotent.
 */
export async function upgradeDocumentsTable(documents: lancedb.Table): Promise<void> {
  if (!(await documents.schema()).fields.some((f) => f.name === PROFILE_COLUMN)) {
    await documents.addColumns([{ name: PROFILE_COLUMN, valueSql: 'CAST(NULL AS STRING)' }]);
  }
  if (!(await indexNames(documents)).has(DOC_ID_INDEX)) {
    await documents.createIndex('doc_id', { config: lancedb.Index.btree(), name: DOC_ID_INDEX, replace: false });
  }
}
