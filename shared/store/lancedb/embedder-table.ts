/**
 * The LanceDB store's record of its embedder: one row (`key` = `embedder`, `value` = JSON
 * `{model, dimension}`) in a small `store_meta` table. A table of its own, not the chunks table's
 * schema metadata: LanceDB's JS API cannot change an existing table's schema metadata (stores made
 * before the record could not gain one), and a separate table is untouched by the chunks table's
 * compaction, merge-inserts and column additions.
 */
import type { Table } from '@lancedb/lancedb';
import { makeArrowTable } from '@lancedb/lancedb';
import { Field, Schema, Utf8 } from 'apache-arrow';
import { PermanentError } from '../../errors.ts';
import { checkEmbedderRecord, type EmbedderRecord } from '../embedder-record.ts';
import { sqlString } from './filter-sql.ts';

export const META_TABLE = 'store_meta';
const EMBEDDER_KEY = 'embedder';

export const metaSchema = new Schema([new Field('key', new Utf8(), false), new Field('value', new Utf8(), false)]);

/** The record a `store_meta` value holds, or null for a value that is not one. */
export function parseEmbedderRecord(value: unknown): EmbedderRecord | null {
  if (typeof value !== 'string') return null;
  try {
    const parsed = JSON.parse(value) as Partial<EmbedderRecord>;
    return typeof parsed.model === 'string' && typeof parsed.dimension === 'number' ? { model: parsed.model, dimension: parsed.dimension } : null;
  } catch {
    return null;
  }
}

/** The embedder recorded in `meta`, or null when there is none. */
export async function readEmbedderRecord(meta: Table): Promise<EmbedderRecord | null> {
  const rows = (await meta.query().where(`key = ${sqlString(EMBEDDER_KEY)}`).select(['value']).limit(1).toArray()) as { value: unknown }[];
  const value = rows[0]?.value;
  if (value === undefined) return null;
  const record = parseEmbedderRecord(value);
  if (!record) throw new PermanentError('STORE_REJECTED', `lancedb table ${META_TABLE} holds a malformed embedder record: ${String(value)}`);
  return record;
}

/** What {@link ensureEmbedderRecord} found. */
export type EmbedderRecordOutcome = 'matched' | 'recorded' | 'unknown';

/**
 * Checks the store's record against `want`, or records `want` when there is none and the chunks
 * table holds no row (a new store, or an old one still empty). An old store that holds chunks
 * stays unrecorded (`unknown`): which embedder wrote them cannot be told from the vectors. Runs
 * under the store's write lock; a record another process wrote meanwhile is kept (insert only
 * when absent) and then checked like any other.
 * @throws PermanentError `EMBEDDER_MISMATCH` when the record names another model.
 */
export async function ensureEmbedderRecord(meta: Table, chunkRows: () => Promise<number>, want: EmbedderRecord, where: string): Promise<EmbedderRecordOutcome> {
  const found = await readEmbedderRecord(meta);
  if (found) {
    checkEmbedderRecord(found.model, want.model, where);
    return 'matched';
  }
  if ((await chunkRows()) > 0) return 'unknown';
  const row = makeArrowTable([{ key: EMBEDDER_KEY, value: JSON.stringify(want) }], { schema: metaSchema });
  await meta.mergeInsert('key').whenNotMatchedInsertAll().execute(row);
  const now = await readEmbedderRecord(meta);
  checkEmbedderRecord(now?.model ?? null, want.model, where);
  return 'recorded';
}
