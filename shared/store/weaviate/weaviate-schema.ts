/**
 * The three Weaviate collections Quarry needs (seed 000 §3), as plain data: what
 * `ensureSchema()` sends, and what it compares an existing collection with.
 *
 * Decisions:
 * - Every property a filter or aggregate names is filterable; ids, versions, facets and
 *   entities use `field` tokenization (a whole value is one token, so `eq`/`containsAny` are exact).
 * - Dates (`valid_from`, `valid_to`, `created_at`, `updated_at`) are `date` with range indexes.
 * - `indexNullState` (for `isNull` and the temporal clamp) and `indexTimestamps` are set at
 *   creation: Weaviate cannot add them later.
 * - `body` is searchable with a Korean-aware tokenizer (`kagome_kr` when the server enables it,
 *   `trigram` otherwise). Quarry's own keyword side searches `keyword_text`, the derived text the
 *   LanceDB store indexes too (Latin words, Hangul/CJK bigrams with spacing removed), with
 *   `whitespace` tokenization, so "출산 장려금" and "출산장려금" match the same chunks on both stores.
 * - Vectors are self-provided (vectorizer none, HNSW, cosine). Weaviate keeps no declared
 *   dimension for such vectors, so the Chunk collection's description records it, and the
 *   embedder's model name (a mismatch is refused: embedder-record.ts).
 */
import { PermanentError } from '../../errors.ts';

/** Tokenizations Quarry may ask for on `body`. */
export type BodyTokenization = 'kagome_kr' | 'trigram';

export type PropertyType = 'text' | 'text[]' | 'int' | 'date';
export type Tokenization = 'field' | 'word' | 'whitespace' | BodyTokenization;

/** One property as Quarry creates it. */
export interface PropertySpec {
  name: string;
  dataType: PropertyType;
  indexFilterable: boolean;
  indexSearchable: boolean;
  indexRangeFilters: boolean;
  /** Only for text and text[]. */
  tokenization?: Tokenization;
}

export interface CollectionSpec {
  /** Logical name (`Document`, `Chunk`, `FacetValueVector`). */
  kind: CollectionKind;
  /** Name on the server: the configured prefix + kind. */
  name: string;
  description: string;
  properties: PropertySpec[];
}

export const COLLECTION_KINDS = ['Document', 'Chunk', 'FacetValueVector'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

/** Filterable `field`-tokenized text: ids and facet values. */
const keyText = (name: string): PropertySpec => ({ name, dataType: 'text', tokenization: 'field', indexFilterable: true, indexSearchable: false, indexRangeFilters: false });
const keyList = (name: string): PropertySpec => ({ name, dataType: 'text[]', tokenization: 'field', indexFilterable: true, indexSearchable: false, indexRangeFilters: false });
const storedText = (name: string): PropertySpec => ({ name, dataType: 'text', tokenization: 'word', indexFilterable: false, indexSearchable: false, indexRangeFilters: false });
const searchText = (name: string, tokenization: Tokenization): PropertySpec => ({ name, dataType: 'text', tokenization, indexFilterable: false, indexSearchable: true, indexRangeFilters: false });
const int = (name: string): PropertySpec => ({ name, dataType: 'int', indexFilterable: true, indexSearchable: false, indexRangeFilters: true });
const date = (name: string): PropertySpec => ({ name, dataType: 'date', indexFilterable: true, indexSearchable: false, indexRangeFilters: true });

/** The property Quarry's keyword side searches (see the module comment). */
export const KEYWORD_PROPERTY = 'keyword_text';

function chunkProperties(body: BodyTokenization): PropertySpec[] {
  return [
    keyText('chunk_id'), keyText('doc_id'), keyText('version'), keyText('section'), keyText('section_path'),
    searchText('body', body), storedText('embedding_text'), searchText(KEYWORD_PROPERTY, 'whitespace'),
    int('page_start'), int('page_end'), int('chunk_index'), int('total_chunks'), int('token_count'),
    keyList('entities'), date('valid_from'), date('valid_to'),
    keyText('doc_type'), keyText('jurisdiction'), keyText('lang'),
    date('created_at'), date('updated_at'),
    // JSON of the chunk's line pages and of the table it holds; added to older collections by ensureSchema.
    storedText('line_pages'), storedText('table_data'),
  ];
}

function documentProperties(): PropertySpec[] {
  return [
    keyText('doc_id'), keyText('version'), searchText('title', 'word'),
    keyText('doc_type'), keyText('jurisdiction'), keyText('lang'),
    date('valid_from'), date('valid_to'), keyList('entities'), int('page_count'), storedText('provenance'),
    // JSON of the DocumentProfile (organisations, period, form); added to older collections by ensureSchema.
    storedText('profile'),
  ];
}

function facetProperties(): PropertySpec[] {
  return [keyText('facet'), keyText('value'), keyList('aliases'), storedText('description'), int('sample_count'), date('updated_at')];
}

const DIMENSION_NOTE = /vector dimension (\d+)/;

const EMBEDDER_NOTE = /; embedder ("(?:[^"\\]|\\.)*")/;

/**
 * The Chunk collection's description, recording the vector dimension and, when given, the
 * embedder's model name (see embedder-record.ts).
 */
export function chunkDescription(dimension: number, model?: string): string {
  const base = `Quarry chunks (passages with section paths, pages, validity dates); vector dimension ${dimension}`;
  return model === undefined ? base : `${base}; embedder ${JSON.stringify(model)}`;
}

/** The embedder model a Chunk collection description records, or null (none recorded). */
export function embedderOfDescription(description: string | undefined): string | null {
  const m = description ? EMBEDDER_NOTE.exec(description) : null;
  if (!m) return null;
  const model: unknown = JSON.parse(m[1] as string);
  return typeof model === 'string' ? model : null;
}

/** The dimension a Chunk collection description records, or null. */
export function dimensionOfDescription(description: string | undefined): number | null {
  const m = description ? DIMENSION_NOTE.exec(description) : null;
  return m ? Number(m[1]) : null;
}

/**
 * Server-side collection names for a prefix. Weaviate capitalises the first letter of a class
 * name, so a prefix must start with an upper-case letter and hold only letters, digits and `_`.
 * @throws PermanentError `INVALID_CONFIG` for a prefix Weaviate would not accept.
 */
export function collectionNames(prefix: string): Record<CollectionKind, string> {
  if (prefix !== '' && !/^[A-Z][A-Za-z0-9_]{0,60}$/.test(prefix)) {
    throw new PermanentError('INVALID_CONFIG', `WEAVIATE_COLLECTION_PREFIX must start with A-Z and hold only letters, digits and _, got "${prefix}"`);
  }
  return { Document: `${prefix}Document`, Chunk: `${prefix}Chunk`, FacetValueVector: `${prefix}FacetValueVector` };
}

/** Every collection Quarry creates, in creation order. */
export function collectionSpecs(opts: { prefix: string; dimension: number; body: BodyTokenization; model?: string }): CollectionSpec[] {
  const names = collectionNames(opts.prefix);
  return [
    { kind: 'Document', name: names.Document, description: 'Quarry documents (one per source file, current version)', properties: documentProperties() },
    { kind: 'Chunk', name: names.Chunk, description: chunkDescription(opts.dimension, opts.model), properties: chunkProperties(opts.body) },
    { kind: 'FacetValueVector', name: names.FacetValueVector, description: `Quarry facet-value vectors; vector dimension ${opts.dimension}`, properties: facetProperties() },
  ];
}

/** The inverted-index settings every collection is created with (fixed at creation). */
export const INVERTED_INDEX = { indexNullState: true, indexTimestamps: true, indexPropertyLength: false } as const;

/** What an existing collection looks like, as far as {@link schemaDifferences} compares it. */
export interface ExistingCollection {
  description?: string;
  properties: { name: string; dataType: string; tokenization?: string; indexFilterable: boolean; indexSearchable: boolean }[];
  invertedIndex: { indexNullState: boolean; indexTimestamps: boolean };
}

/**
 * Properties `spec` has and `existing` lacks that can simply be added: stored-only ones (no
 * index to rebuild), which older objects read as absent. A store made before they existed
 * gains them in `ensureSchema` instead of being refused.
 */
export function addableProperties(spec: CollectionSpec, existing: ExistingCollection): PropertySpec[] {
  const have = new Set(existing.properties.map((p) => p.name));
  return spec.properties.filter((p) => !have.has(p.name) && !p.indexFilterable && !p.indexSearchable && !p.indexRangeFilters);
}

/**
 * Why an existing collection cannot serve as `spec` (empty: it can). Extra properties are
 * allowed (someone may have added their own); missing or differently indexed ones are not.
 * For `body`, either Korean-aware tokenization is accepted.
 */
export function schemaDifferences(spec: CollectionSpec, existing: ExistingCollection): string[] {
  const out: string[] = [];
  if (!existing.invertedIndex.indexNullState) out.push(`${spec.name}: indexNullState is off (isNull filters and the temporal clamp need it; it can only be set at creation)`);
  if (!existing.invertedIndex.indexTimestamps) out.push(`${spec.name}: indexTimestamps is off (it can only be set at creation)`);
  const byName = new Map(existing.properties.map((p) => [p.name, p]));
  for (const want of spec.properties) {
    const have = byName.get(want.name);
    if (!have) {
      out.push(`${spec.name}.${want.name}: missing`);
      continue;
    }
    if (have.dataType !== want.dataType) out.push(`${spec.name}.${want.name}: dataType ${have.dataType}, Quarry needs ${want.dataType}`);
    if (want.indexFilterable && !have.indexFilterable) out.push(`${spec.name}.${want.name}: not filterable`);
    if (want.indexSearchable && !have.indexSearchable) out.push(`${spec.name}.${want.name}: not searchable`);
    const tokenOk =
      want.tokenization === undefined ||
      have.tokenization === want.tokenization ||
      (want.name === 'body' && (have.tokenization === 'kagome_kr' || have.tokenization === 'trigram'));
    if (!tokenOk) out.push(`${spec.name}.${want.name}: tokenization ${have.tokenization ?? 'none'}, Quarry needs ${want.tokenization}`);
  }
  return out;
}
