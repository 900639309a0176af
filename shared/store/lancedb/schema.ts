import {
  DateDay, Field, FixedSizeList, Float32, Int32, List, makeData, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Utf8, vectorFromArray, type DataType,
} from 'apache-arrow';
import {
  encodeLinePages,
  optionalLinePages,
  encodeTable,
  optionalTable,
  parseProfile,
  profileField,
  type DocumentRecord,
  type Provenance,
} from '../../domain/index.ts';
import type { StoredChunk, StoredChunkWithoutVector } from '../vector-store.ts';
import { chunkKeywordText } from '../keyword-text.ts';
import { FILTER_FIELDS } from '../filter.ts';

/*
 * Column decisions (LanceDB tables `documents` and `chunks`):
 * - valid_from / valid_to are Arrow date32 (nullable): typed comparisons `DATE '…'`, and a
 *   null means open-ended. created_at / updated_at are timestamp(ms, UTC).
 * - entities is list<utf8>, filtered with DataFusion's array_has_any.
 * - vector is fixed_size_list<float32>[dimension]: its list size IS the store's dimension.
 * - keyword_text is derived (see keyword-text.ts), carries the full-text index, and is never
 *   returned to callers.
 * - provenance is a JSON string: nobody filters on it and it may grow fields.
 * - payload repeats every returned field of a chunk as one JSON string (see PAYLOAD_COLUMN).
 */

/**
 * The keyword side's recent rows (see docs/vector-stores.md, *Recent rows beside the full-text
 * index*): every chunk row a store writes is also written here, with the columns a keyword
 * search and its filter read and the time it was added. LanceDB's full-text index update merges
 * the new rows into the whole index (~1 s of CPU at 100k chunks, however few rows), and rows it
 * has not taken in are scanned by every keyword search (~0.15 ms a row). So searches read the
 * chunks table's index alone and this small table's own index beside it, and the chunks table's
 * index is brought up to date now and then, after which the rows it covers are dropped from here.
 * Derived and disposable: the chunks table stays the only record of a chunk.
 */
export const RECENT_TABLE = 'chunks_recent';
/** When a row was written to {@link RECENT_TABLE} (after its chunks-table commit). */
export const ADDED_AT_COLUMN = 'added_at';
/** Table of Document rows, keyed by doc_id. */
export const DOCUMENTS_TABLE = 'documents';
/** Table of chunk rows with their vectors, keyed by chunk_id. */
export const CHUNKS_TABLE = 'chunks';
/**
 * Derived column: the chunk's returned fields (CHUNK_COLUMNS) as one JSON string. Searches read
 * their hits' rows by address, and a random read costs per column: at 100k chunks, 300 rows of the
 * twenty columns take ~17 ms to read and ~8 ms to convert, the one payload column ~6 and ~3 ms.
 * The columns stay for filters, counts and scans. Nullable, last: stores made before it gain it
 * as an empty column (rows written since fill it; readers read older rows from the columns).
 */
export const PAYLOAD_COLUMN = 'payload';
/** A chunk's `line_pages` as JSON; nullable and after the payload: stores made before it gain it empty. */
export const LINE_PAGES_COLUMN = 'line_pages';
/** The table a chunk holds, as JSON (see DocTable); nullable, last: stores made before it gain it empty. */
export const TABLE_COLUMN = 'table_data';
/** Derived column carrying the full-text index. */
export const FTS_COLUMN = 'keyword_text';
/** Name of the full-text index on {@link FTS_COLUMN}. */
export const FTS_INDEX = 'keyword_text_idx';
/**
 * Scalar indexes of the chunks table: `chunk_id` for reads by id, and the columns filters and
 * facet counts test (the temporal clamp, the narrowed-search branches, the documents a question
 * names). Without them LanceDB evaluates every filter by scanning the column; with them the
 * filter, the count and the search's prefilter read only the index (at 100k chunks a branch's
 * keyword side runs in about half the time, and the exact vector scan of a few documents' chunks
 * in ~6 ms instead of 340–1000). Bitmaps for the few-valued facets, B-trees for dates, section
 * headings and document ids (many values).
 */
export const SCALAR_INDEXES: readonly { column: string; name: string; kind: 'btree' | 'bitmap' }[] = (
  [
    ['chunk_id', 'btree'],
    ['doc_id', 'btree'],
    ['doc_type', 'bitmap'],
    ['jurisdiction', 'bitmap'],
    ['lang', 'bitmap'],
    ['section', 'btree'],
    ['valid_from', 'btree'],
    ['valid_to', 'btree'],
  ] as const
).map(([column, kind]) => ({ column, kind, name: `${column}_idx` }));

const utf8 = (name: string, nullable = false): Field => new Field(name, new Utf8(), nullable);
const int32 = (name: string): Field => new Field(name, new Int32(), false);
const date = (name: string): Field => new Field(name, new DateDay(), true);
const instant = (name: string): Field => new Field(name, new TimestampMillisecond('UTC'), false);
const strings = (name: string): Field => new Field(name, new List(new Field('item', new Utf8(), true)), false);

/** Columns of a chunk row returned to callers (everything but `vector` and `keyword_text`). */
export const CHUNK_COLUMNS = [
  'chunk_id', 'doc_id', 'version', 'section', 'section_path', 'body', 'embedding_text',
  'page_start', 'page_end', 'chunk_index', 'total_chunks', 'token_count', 'entities',
  'valid_from', 'valid_to', 'doc_type', 'jurisdiction', 'lang', 'created_at', 'updated_at', LINE_PAGES_COLUMN, TABLE_COLUMN,
] as const;

/** Arrow schema of the chunks table for vectors of `dimension` floats. */
export function chunksSchema(dimension: number): Schema {
  return new Schema([
    utf8('chunk_id'), utf8('doc_id'), utf8('version'), utf8('section'), utf8('section_path'),
    utf8('body'), utf8('embedding_text'),
    int32('page_start'), int32('page_end'), int32('chunk_index'), int32('total_chunks'), int32('token_count'),
    strings('entities'), date('valid_from'), date('valid_to'),
    utf8('doc_type'), utf8('jurisdiction'), utf8('lang'),
    instant('created_at'), instant('updated_at'),
    utf8(FTS_COLUMN),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
    utf8(PAYLOAD_COLUMN, true),
    utf8(LINE_PAGES_COLUMN, true),
    utf8(TABLE_COLUMN, true),
  ]);
}

/** Name of the B-tree on the documents table's `doc_id`. */
export const DOC_ID_INDEX = 'doc_id_idx';

/** The documents table's column holding the profile (organisations, period, form) as JSON. */
export const PROFILE_COLUMN = 'profile';

/** Arrow schema of the documents table. */
export const documentsSchema = new Schema([
  utf8('doc_id'), utf8('version'), utf8('title'), utf8('doc_type'), utf8('jurisdiction'), utf8('lang'),
  date('valid_from'), date('valid_to'), strings('entities'), int32('page_count'), utf8('provenance'),
  // JSON of the DocumentProfile; nullable because tables made before profiles gain it empty.
  utf8(PROFILE_COLUMN, true),
]);

/** The vector length a chunks-table schema was created with, or null if it has no vector column. */
export function dimensionOfSchema(schema: { fields: { name: string; type: DataType }[] }): number | null {
  const field = schema.fields.find((f) => f.name === 'vector');
  return field && FixedSizeList.isFixedSizeList(field.type) ? field.type.listSize : null;
}

function toDate(iso: string | null): Date | null {
  return iso === null ? null : new Date(`${iso}T00:00:00Z`);
}

/** A cell of a date32 or timestamp column, as Arrow JS hands it over (ms number, bigint or Date). */
function epochMs(cell: unknown): number | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return cell.getTime();
  return Number(cell);
}

/** A date32 cell as `YYYY-MM-DD`, or null. */
export function isoDay(cell: unknown): string | null {
  const ms = epochMs(cell);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** A timestamp cell as an ISO 8601 instant (the epoch for a missing cell). */
export function isoInstant(cell: unknown): string {
  return new Date(epochMs(cell) ?? 0).toISOString();
}

/** An Arrow list cell (a Vector, or already an array) as a plain string array. */
export function stringList(cell: unknown): string[] {
  if (cell === null || cell === undefined) return [];
  if (Array.isArray(cell)) return cell.map(String);
  const iterable = cell as Iterable<unknown>;
  return Array.from(iterable, (x) => String(x));
}

/** Columns of {@link RECENT_TABLE} taken from the chunks table: the id, the keyword text and every filterable field. */
const RECENT_COLUMNS: ReadonlySet<string> = new Set(['chunk_id', FTS_COLUMN, ...Object.keys(FILTER_FIELDS)]);

/** Arrow schema of {@link RECENT_TABLE}: the chunks table's fields in {@link RECENT_COLUMNS}, then {@link ADDED_AT_COLUMN}. */
export function recentSchema(): Schema {
  // The vector column is left out, so the length given here does not matter.
  const fields = chunksSchema(1).fields.filter((f) => RECENT_COLUMNS.has(f.name));
  return new Schema([...fields, instant(ADDED_AT_COLUMN)]);
}

/** The rows of `chunks` (as {@link chunksToArrow} made them) for {@link RECENT_TABLE}, added at `addedAt`. */
export function recentToArrow(chunks: Table, addedAt: Date): Table {
  const schema = recentSchema();
  const added = vectorFromArray(Array.from({ length: chunks.numRows }, () => addedAt), schema.fields.at(-1)!.type).data[0]!;
  const columns = schema.fields.map((field) => (field.name === ADDED_AT_COLUMN ? added : chunks.getChild(field.name)!.data[0]!));
  const data = makeData({ type: new Struct(schema.fields), length: chunks.numRows, nullCount: 0, children: columns });
  return new Table(schema, new RecordBatch(schema, data));
}

/** Row of the chunks table for `chunk`, without the vector (adds the derived keyword text and payload). */
export function chunkToRow(chunk: StoredChunk): Record<string, unknown> {
  const row: Record<string, unknown> = {
    chunk_id: chunk.chunk_id,
    doc_id: chunk.doc_id,
    version: chunk.version,
    section: chunk.section,
    section_path: chunk.section_path,
    body: chunk.body,
    embedding_text: chunk.embedding_text,
    page_start: chunk.page_start,
    page_end: chunk.page_end,
    chunk_index: chunk.chunk_index,
    total_chunks: chunk.total_chunks,
    token_count: chunk.token_count,
    entities: chunk.entities,
    valid_from: toDate(chunk.valid_from),
    valid_to: toDate(chunk.valid_to),
    doc_type: chunk.doc_type,
    jurisdiction: chunk.jurisdiction,
    lang: chunk.lang,
    created_at: new Date(chunk.created_at),
    updated_at: new Date(chunk.updated_at),
    [LINE_PAGES_COLUMN]: encodeLinePages(chunk.line_pages),
    [TABLE_COLUMN]: encodeTable(chunk.table),
    // Heading (weighted) + breadcrumb + body: a heading word ("지원대상") should find every chunk under it.
    [FTS_COLUMN]: chunkKeywordText(chunk),
  };
  // Through rowToChunk, so the payload says exactly what reading the columns would.
  row[PAYLOAD_COLUMN] = encodePayload(rowToChunk(row));
  return row;
}

/**
 * A chunk as its payload stores it. The embedding text usually ends with the body (breadcrumb,
 * then the passage): then only what precedes the body is stored, which keeps the payload, and
 * every search's read of it, about half as long. Any other embedding text is stored whole.
 */
export function encodePayload(chunk: StoredChunkWithoutVector): string {
  const { embedding_text: text, ...rest } = chunk;
  return JSON.stringify(text.endsWith(chunk.body) ? { ...rest, embedding_prefix: text.slice(0, text.length - chunk.body.length) } : chunk);
}

function decodePayload(json: string): StoredChunkWithoutVector {
  const stored = JSON.parse(json) as StoredChunkWithoutVector | (Omit<StoredChunkWithoutVector, 'embedding_text'> & { embedding_prefix: string });
  if (!('embedding_prefix' in stored)) return stored;
  const { embedding_prefix: prefix, ...rest } = stored;
  return { ...rest, embedding_text: prefix + rest.body };
}

/**
 * The vector column of `chunks`, built from one contiguous Float32Array: a list of numbers per row
 * (as a generic row-to-Arrow conversion takes them) costs an Arrow builder call per float.
 *
 * @throws RangeError when a vector's length is not `dimension`.
 */
function vectorColumn(chunks: readonly StoredChunk[], type: FixedSizeList<Float32>) {
  const dimension = type.listSize;
  const values = new Float32Array(chunks.length * dimension);
  chunks.forEach((chunk, i) => {
    if (chunk.vector.length !== dimension) {
      throw new RangeError(`chunk ${chunk.chunk_id} has a vector of ${chunk.vector.length} numbers; the chunks table holds ${dimension}`);
    }
    values.set(chunk.vector, i * dimension);
  });
  const child = makeData({ type: type.children[0]!.type, length: values.length, nullCount: 0, data: values });
  return makeData({ type, length: chunks.length, nullCount: 0, child });
}

/** An Arrow table of `chunks` for the chunks table, in the table's exact schema, built column by column. */
export function chunksToArrow(chunks: readonly StoredChunk[], dimension: number): Table {
  const schema = chunksSchema(dimension);
  const rows = chunks.map(chunkToRow);
  const columns = schema.fields.map((field) =>
    field.name === 'vector'
      ? vectorColumn(chunks, field.type as FixedSizeList<Float32>)
      : vectorFromArray(rows.map((row) => row[field.name] ?? null), field.type).data[0]!,
  );
  const data = makeData({ type: new Struct(schema.fields), length: chunks.length, nullCount: 0, children: columns });
  return new Table(schema, new RecordBatch(schema, data));
}

/** The chunk a row's {@link PAYLOAD_COLUMN} holds, or null for a row written before it existed. */
export function payloadChunk(row: Record<string, unknown>): StoredChunkWithoutVector | null {
  const cell = row[PAYLOAD_COLUMN];
  return typeof cell === 'string' && cell !== '' ? decodePayload(cell) : null;
}

/** A chunks-table row (any subset of columns incl. CHUNK_COLUMNS) back to the port's shape. */
export function rowToChunk(row: Record<string, unknown>): StoredChunkWithoutVector {
  return {
    chunk_id: String(row.chunk_id),
    doc_id: String(row.doc_id),
    version: String(row.version),
    section: String(row.section),
    section_path: String(row.section_path),
    body: String(row.body),
    embedding_text: String(row.embedding_text),
    page_start: Number(row.page_start),
    page_end: Number(row.page_end),
    chunk_index: Number(row.chunk_index),
    total_chunks: Number(row.total_chunks),
    token_count: Number(row.token_count),
    entities: stringList(row.entities),
    valid_from: isoDay(row.valid_from),
    valid_to: isoDay(row.valid_to),
    doc_type: String(row.doc_type),
    jurisdiction: String(row.jurisdiction),
    lang: String(row.lang),
    created_at: isoInstant(row.created_at),
    updated_at: isoInstant(row.updated_at),
    ...optionalLinePages(row[LINE_PAGES_COLUMN]),
    ...optionalTable(row[TABLE_COLUMN]),
  };
}

/** The vector cell of a row, copied out of the Arrow batch (which may be reused). */
export function rowVector(row: Record<string, unknown>): Float32Array {
  const cell = row.vector as { toArray?: () => ArrayLike<number> } | ArrayLike<number> | null;
  if (cell && typeof (cell as { toArray?: unknown }).toArray === 'function') {
    return Float32Array.from((cell as { toArray: () => ArrayLike<number> }).toArray());
  }
  return Float32Array.from((cell ?? []) as ArrayLike<number>);
}

/** Row of the documents table for `doc`. */
export function documentToRow(doc: DocumentRecord): Record<string, unknown> {
  return {
    doc_id: doc.doc_id,
    version: doc.version,
    title: doc.title,
    doc_type: doc.doc_type,
    jurisdiction: doc.jurisdiction,
    lang: doc.lang,
    valid_from: toDate(doc.valid_from),
    valid_to: toDate(doc.valid_to),
    entities: doc.entities,
    page_count: doc.page_count,
    provenance: JSON.stringify(doc.provenance),
    [PROFILE_COLUMN]: doc.profile ? JSON.stringify(doc.profile) : null,
  };
}

/** A documents-table row back to a DocumentRecord. */
export function rowToDocument(row: Record<string, unknown>): DocumentRecord {
  return {
    doc_id: String(row.doc_id),
    version: String(row.version),
    title: String(row.title),
    doc_type: String(row.doc_type),
    jurisdiction: String(row.jurisdiction),
    lang: String(row.lang),
    valid_from: isoDay(row.valid_from),
    valid_to: isoDay(row.valid_to),
    entities: stringList(row.entities),
    page_count: Number(row.page_count),
    provenance: JSON.parse(String(row.provenance)) as Provenance,
    ...profileField(parseProfile(row[PROFILE_COLUMN])),
  };
}

