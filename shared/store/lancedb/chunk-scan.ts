import type { Table } from '@lancedb/lancedb';
import { decodeLinePages, optionalTable } from '../../domain/index.ts';
import type { ChunkField, ScanQuery, ScannedChunk } from '../vector-store.ts';
import { isoDay, isoInstant, stringList, TABLE_COLUMN } from './schema.ts';
import { classifyStoreError } from './write-guard.ts';

type Cell = (cell: unknown) => unknown;

const text: Cell = (c) => String(c);
const int: Cell = (c) => Number(c);

/**
 * How each projectable column comes back in the port's shape. A `Record` over every
 * {@link ChunkField}, so a field added to the chunk type without a converter fails to compile.
 */
const CONVERT: Record<ChunkField, Cell> = {
  chunk_id: text, doc_id: text, version: text, section: text, section_path: text, body: text, embedding_text: text,
  page_start: int, page_end: int, chunk_index: int, total_chunks: int, token_count: int,
  entities: stringList, valid_from: isoDay, valid_to: isoDay,
  doc_type: text, jurisdiction: text, lang: text, created_at: isoInstant, updated_at: isoInstant,
  line_pages: decodeLinePages,
  table: (cell) => optionalTable(cell).table,
};

/** The column a chunk field is stored in (`table` is a SQL keyword: its column is TABLE_COLUMN). */
function columnOf(field: ChunkField): string {
  return field === 'table' ? TABLE_COLUMN : field;
}

/**
 * Streams the chunks table batch by batch, projected to `q.fields`, under the SQL `where`.
 * Rows are built from column vectors (not row proxies), so a scan over a large table costs one
 * small object per row and only the asked columns are read from disk.
 * @throws RetryableError `STORE_UNAVAILABLE` / PermanentError `STORE_REJECTED` from LanceDB.
 */
export async function* scanChunkTable<F extends ChunkField>(
  table: Table,
  q: ScanQuery<F>,
  where: string | undefined,
): AsyncGenerator<ScannedChunk<F>> {
  const fields = [...new Set(q.fields)];
  let query = table.query().select(fields.map(columnOf));
  if (where) query = query.where(where);
  try {
    for await (const batch of query) {
      const columns = fields.map((f) => ({ field: f, convert: CONVERT[f], column: batch.getChild(columnOf(f)) }));
      for (let i = 0; i < batch.numRows; i++) {
        const row: Partial<Record<ChunkField, unknown>> = {};
        for (const { field, convert, column } of columns) row[field] = convert(column?.get(i));
        yield row as ScannedChunk<F>;
      }
    }
  } catch (err) {
    throw classifyStoreError(err, 'scanChunks');
  }
}
