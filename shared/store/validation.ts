/**
 * Input checks every VectorStore adapter makes before any I/O, so each adapter rejects the same
 * inputs with the same codes (the contract suite holds them to it).
 */
import { DocumentRecord } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';
import { FacetName, FacetValueVectorWithoutVector, type FacetValueVector } from './facet-values.ts';
import { AGGREGATE_FIELDS, StoredChunkWithoutVector, type AggregateField, type ChunkField, type HybridQuery, type StoredChunk } from './chunk-index.ts';

/**
 * @throws PermanentError `DIMENSION_MISMATCH` for a vector of another length,
 *   `EMBEDDING_QUALITY` for a NaN or infinite component.
 */
export function checkVector(vector: ArrayLike<number>, dimension: number, what: string): void {
  if (vector.length !== dimension) {
    throw new PermanentError('DIMENSION_MISMATCH', `${what}: expected dimension ${dimension}, got ${vector.length}`);
  }
  for (let i = 0; i < vector.length; i++) {
    if (!Number.isFinite(vector[i])) throw new PermanentError('EMBEDDING_QUALITY', `${what}: component ${i} is ${vector[i]}`);
  }
}

/** @throws PermanentError `INVALID_CONFIG` unless `dimension` is a positive integer. */
export function checkDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new PermanentError('INVALID_CONFIG', `vector dimension must be a positive integer, got ${dimension}`);
  }
}

/**
 * Parsed documents, one per `doc_id` (the last wins).
 * @throws PermanentError `STORE_REJECTED` for a malformed document.
 */
export function validDocuments(docs: readonly DocumentRecord[]): DocumentRecord[] {
  const byId = new Map<string, DocumentRecord>();
  for (const doc of docs) {
    const parsed = DocumentRecord.safeParse(doc);
    if (!parsed.success) throw new PermanentError('STORE_REJECTED', `document ${doc.doc_id}: ${parsed.error.message}`);
    byId.set(doc.doc_id, parsed.data);
  }
  return [...byId.values()];
}

/**
 * Checked chunks, one per `chunk_id` (the last write of an id inside a batch wins).
 * @throws PermanentError `STORE_REJECTED` for a malformed chunk, `DIMENSION_MISMATCH` /
 *   `EMBEDDING_QUALITY` for a bad vector.
 */
export function validChunks(chunks: readonly StoredChunk[], dimension: number): StoredChunk[] {
  const byId = new Map<string, StoredChunk>();
  for (const chunk of chunks) {
    const { vector, ...rest } = chunk;
    const parsed = StoredChunkWithoutVector.safeParse(rest);
    if (!parsed.success) throw new PermanentError('STORE_REJECTED', `chunk ${chunk.chunk_id}: ${parsed.error.message}`);
    checkVector(vector, dimension, `chunk ${chunk.chunk_id}`);
    byId.set(chunk.chunk_id, chunk);
  }
  return [...byId.values()];
}

/** Map key of a facet value. */
export function facetKey(facet: string, value: string): string {
  return `${facet}\u0000${value}`;
}

/**
 * Checked facet-value rows keyed by {@link facetKey}, deduplicated (the last row of a pair wins).
 * @throws PermanentError `STORE_REJECTED` for a malformed row, `DIMENSION_MISMATCH` for a bad vector.
 */
export function validFacetRows(rows: readonly FacetValueVector[], dimension: number): Map<string, FacetValueVector> {
  const byKey = new Map<string, FacetValueVector>();
  for (const row of rows) {
    const { vector, ...rest } = row;
    const parsed = FacetValueVectorWithoutVector.safeParse(rest);
    if (!parsed.success) {
      throw new PermanentError('STORE_REJECTED', `facet value ${String(row.facet)}=${String(row.value)}: ${parsed.error.message}`);
    }
    checkVector(vector, dimension, `facet value ${row.facet}=${row.value}`);
    byKey.set(facetKey(row.facet, row.value), { ...parsed.data, vector });
  }
  return byKey;
}

/**
 * The checks of `replaceFacetValues` that need no store.
 * @throws PermanentError `INVALID_PAYLOAD` for an unknown facet, `STORE_REJECTED` for a row of another facet.
 */
export function checkReplaceFacet(facet: FacetName, rows: readonly FacetValueVector[]): void {
  if (!FacetName.safeParse(facet).success) throw new PermanentError('INVALID_PAYLOAD', `unknown facet ${String(facet)}`);
  const other = rows.find((r) => r.facet !== facet);
  if (other) throw new PermanentError('STORE_REJECTED', `replaceFacetValues(${facet}) got a row of facet ${other.facet}`);
}

/** @throws PermanentError `INVALID_PAYLOAD` for an unknown facet name. */
export function checkFacetName(facet: FacetName | undefined): void {
  if (facet !== undefined && !FacetName.safeParse(facet).success) throw new PermanentError('INVALID_PAYLOAD', `unknown facet ${String(facet)}`);
}

/** @throws PermanentError `INVALID_PAYLOAD` for alpha outside [0, 1] or a limit that is not a positive integer. */
export function checkHybridQuery(q: Pick<HybridQuery, 'alpha' | 'limit'>): void {
  if (!(q.alpha >= 0 && q.alpha <= 1)) throw new PermanentError('INVALID_PAYLOAD', `alpha must be in [0, 1], got ${q.alpha}`);
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new PermanentError('INVALID_PAYLOAD', `limit must be a positive integer, got ${q.limit}`);
}

/** @throws PermanentError `INVALID_PAYLOAD` for a field aggregates cannot group by. */
export function checkAggregateField(groupBy: AggregateField): void {
  if (!(AGGREGATE_FIELDS as readonly string[]).includes(groupBy)) throw new PermanentError('INVALID_PAYLOAD', `cannot aggregate by ${String(groupBy)}`);
}

/** Aggregate buckets largest first, ties by value. */
export function sortBuckets<B extends { value: string; count: number }>(buckets: B[]): B[] {
  return buckets.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** `a` before `b` by facet, then value. */
export function compareFacetRows(a: Pick<FacetValueVector, 'facet' | 'value'>, b: Pick<FacetValueVector, 'facet' | 'value'>): number {
  if (a.facet !== b.facet) return a.facet < b.facet ? -1 : 1;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** Every chunk field a read returns and a scan may project (all but the vector). */
export const CHUNK_FIELDS = Object.keys(StoredChunkWithoutVector.shape) as ChunkField[];

/**
 * Checks a projection before any I/O: field names reach the store as column or property names,
 * so only names of the closed chunk-field list pass.
 * @throws PermanentError `INVALID_PAYLOAD` for an empty list or an unknown field.
 */
export function checkScanFields(fields: readonly string[]): void {
  if (fields.length === 0) throw new PermanentError('INVALID_PAYLOAD', 'scanChunks needs at least one field');
  const known: readonly string[] = CHUNK_FIELDS;
  const unknown = fields.filter((f) => !known.includes(f));
  if (unknown.length) throw new PermanentError('INVALID_PAYLOAD', `scanChunks cannot project ${unknown.join(', ')}`);
}
