/**
 * Quarry records ↔ Weaviate object properties, and deterministic object ids. Pure.
 *
 * Object ids: a chunk's id IS its chunk_id (already uuid5 of a delimited key). Documents and
 * facet values get uuid5 of a delimited key built here (`uuid5Of` escapes its separator), never
 * the client's `generateUuid5(a, b)`, which concatenates its two arguments without one.
 */
import type { WeaviateField } from 'weaviate-client';
import {
  encodeLinePages,
  optionalLinePages,
  encodeTable,
  optionalTable,
  uuid5Of,
  parseProfile,
  profileField,
  type DocumentRecord,
  type Provenance,
} from '../../domain/index.ts';
import type { FacetName, FacetValueVector } from '../facet-values.ts';
import { chunkKeywordText } from '../keyword-text.ts';
import { CHUNK_FIELDS } from '../validation.ts';
import type { StoredChunk, StoredChunkWithoutVector } from '../vector-store.ts';
import { KEYWORD_PROPERTY } from './weaviate-schema.ts';

/** Property values as the client sends and returns them. */
export type Properties = Record<string, WeaviateField>;

/** Object ids one `ContainsAny` fetch asks for at most. */
export const ID_BATCH = 500;

/** Object id of a Document. */
export function documentUuid(docId: string): string {
  return uuid5Of(['quarry', 'Document', docId]);
}

/** Object id of a facet value. */
export function facetValueUuid(facet: string, value: string): string {
  return uuid5Of(['quarry', 'FacetValueVector', facet, value]);
}

/** `YYYY-MM-DD` → the RFC 3339 instant Weaviate's date type stores (midnight UTC). */
export function dayToInstant(day: string): string {
  return `${day}T00:00:00Z`;
}

/** A date property as returned (Date or RFC 3339 string) → `YYYY-MM-DD`, or null. */
export function instantToDay(value: unknown): string | null {
  const ms = toMs(value);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** A date property as returned → ISO 8601 instant with milliseconds (the epoch when missing). */
export function instantToIso(value: unknown): string {
  return new Date(toMs(value) ?? 0).toISOString();
}

function toMs(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.getTime();
  const ms = Date.parse(String(value));
  return Number.isNaN(ms) ? null : ms;
}

/** Null-valued properties are left out: with indexNullState on, an absent property IS null. */
function withoutNulls(props: Record<string, WeaviateField | null>): Properties {
  return Object.fromEntries(Object.entries(props).filter((e): e is [string, WeaviateField] => e[1] !== null && e[1] !== undefined));
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const int = (v: unknown): number => Number(v ?? 0);

/** A chunk's properties (everything but the vector, plus the derived keyword text). */
export function chunkToProperties(c: StoredChunkWithoutVector): Properties {
  return withoutNulls({
    chunk_id: c.chunk_id, doc_id: c.doc_id, version: c.version, section: c.section, section_path: c.section_path,
    body: c.body, embedding_text: c.embedding_text, [KEYWORD_PROPERTY]: chunkKeywordText(c),
    page_start: c.page_start, page_end: c.page_end, chunk_index: c.chunk_index, total_chunks: c.total_chunks, token_count: c.token_count,
    entities: c.entities, valid_from: c.valid_from && dayToInstant(c.valid_from), valid_to: c.valid_to && dayToInstant(c.valid_to),
    doc_type: c.doc_type, jurisdiction: c.jurisdiction, lang: c.lang, created_at: c.created_at, updated_at: c.updated_at,
    line_pages: encodeLinePages(c.line_pages),
    table_data: encodeTable(c.table),
  });
}

/** Chunk fields stored under another property name (`table` reads as a keyword elsewhere). */
const PROPERTY_OF: Partial<Record<keyof StoredChunkWithoutVector, string>> = { table: 'table_data' };

/** The property a chunk field is stored in. */
export function chunkProperty(field: keyof StoredChunkWithoutVector): string {
  return PROPERTY_OF[field] ?? field;
}

/** Chunk properties returned by reads (the keyword text is internal). */
export const CHUNK_RETURN_PROPERTIES: readonly string[] = CHUNK_FIELDS.map(chunkProperty);

/** A chunk read back. */
export function propertiesToChunk(p: Properties): StoredChunkWithoutVector {
  return {
    chunk_id: String(p.chunk_id), doc_id: String(p.doc_id), version: String(p.version),
    section: String(p.section ?? ''), section_path: String(p.section_path ?? ''),
    body: String(p.body ?? ''), embedding_text: String(p.embedding_text ?? ''),
    page_start: int(p.page_start), page_end: int(p.page_end), chunk_index: int(p.chunk_index),
    total_chunks: int(p.total_chunks), token_count: int(p.token_count), entities: strings(p.entities),
    valid_from: instantToDay(p.valid_from), valid_to: instantToDay(p.valid_to),
    doc_type: String(p.doc_type ?? ''), jurisdiction: String(p.jurisdiction ?? ''), lang: String(p.lang ?? ''),
    created_at: instantToIso(p.created_at), updated_at: instantToIso(p.updated_at),
    ...optionalLinePages(p.line_pages),
    ...optionalTable(p.table_data),
  };
}

/** Projects a read-back property bag onto scan fields, normalising dates like {@link propertiesToChunk}. */
export function projectChunk<F extends keyof StoredChunkWithoutVector>(p: Properties, fields: readonly F[]): Pick<StoredChunkWithoutVector, F> {
  const full = propertiesToChunk({ chunk_id: '', doc_id: '', version: '', ...p });
  return Object.fromEntries(fields.map((f) => [f, full[f]])) as Pick<StoredChunkWithoutVector, F>;
}

export function documentToProperties(d: DocumentRecord): Properties {
  return withoutNulls({
    doc_id: d.doc_id, version: d.version, title: d.title, doc_type: d.doc_type, jurisdiction: d.jurisdiction, lang: d.lang,
    valid_from: d.valid_from && dayToInstant(d.valid_from), valid_to: d.valid_to && dayToInstant(d.valid_to),
    entities: d.entities, page_count: d.page_count, provenance: JSON.stringify(d.provenance),
    profile: d.profile ? JSON.stringify(d.profile) : null,
  });
}

export function propertiesToDocument(p: Properties): DocumentRecord {
  return {
    doc_id: String(p.doc_id), version: String(p.version), title: String(p.title ?? ''),
    doc_type: String(p.doc_type ?? ''), jurisdiction: String(p.jurisdiction ?? ''), lang: String(p.lang ?? ''),
    valid_from: instantToDay(p.valid_from), valid_to: instantToDay(p.valid_to), entities: strings(p.entities),
    page_count: int(p.page_count), provenance: JSON.parse(String(p.provenance ?? '{}')) as Provenance,
    ...profileField(parseProfile(p.profile)),
  };
}

export function facetValueToProperties(r: FacetValueVector): Properties {
  return { facet: r.facet, value: r.value, aliases: r.aliases, description: r.description, sample_count: r.sample_count, updated_at: r.updated_at };
}

export function propertiesToFacetValue(p: Properties, vector: number[]): FacetValueVector {
  return {
    facet: String(p.facet) as FacetName, value: String(p.value), aliases: strings(p.aliases), description: String(p.description ?? ''),
    sample_count: int(p.sample_count), updated_at: instantToIso(p.updated_at), vector: Float32Array.from(vector),
  };
}

/** The vector a chunk is written with, as the client wants it. */
export function vectorArray(c: Pick<StoredChunk, 'vector'>): number[] {
  return Array.from(c.vector);
}
