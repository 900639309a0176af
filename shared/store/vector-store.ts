import { CHUNK_INDEX_METHODS, type ChunkIndex } from './chunk-index.ts';
import { DOCUMENT_TABLE_METHODS, type DocumentTable } from './document-table.ts';
import { FACET_VALUE_STORE_METHODS, type FacetValueStore } from './facet-value-store.ts';
import { STORE_ADMIN_METHODS, type StoreAdmin } from './store-admin.ts';

export type { Filter } from './filter.ts';
export * from './facet-values.ts';
export * from './chunk-index.ts';
export * from './document-table.ts';
export * from './facet-value-store.ts';
export * from './store-admin.ts';

/**
 * The vector-store port (seed 000 §3, docs/architecture.md §2): its four parts over one
 * connection. Takes vectors, never text to embed. A caller takes only the part it uses
 * ({@link ChunkIndex}, {@link DocumentTable}, {@link FacetValueStore}, {@link StoreAdmin});
 * this whole is what a process opens (`createVectorStore`) and hands around as `ports.store`.
 * Each part has its contract suite in `tests/contract/`, run by every adapter.
 *
 * Errors: `RetryableError('STORE_UNAVAILABLE')` for what may pass (I/O, commit conflicts that
 * outlived the adapter's own retries), `PermanentError('STORE_REJECTED')` for what will not
 * (writing before `ensureSchema`, data the store refuses), `PermanentError('DIMENSION_MISMATCH')`
 * for vectors of the wrong length, `PermanentError('EMBEDDER_MISMATCH')` for another embedder and
 * `PermanentError('INVALID_PAYLOAD')` for a malformed filter.
 */
export interface VectorStore extends ChunkIndex, DocumentTable, FacetValueStore, StoreAdmin {}

/** The parts an adapter builds over its one connection. */
export interface VectorStoreParts {
  chunks: ChunkIndex;
  documents: DocumentTable;
  facets: FacetValueStore;
  admin: StoreAdmin;
}

type Method = (...args: never[]) => unknown;

/** `part`'s methods named in `names`, bound to it (a part may be a class instance). */
function bound<T extends object, K extends keyof T>(part: T, names: readonly K[]): Pick<T, K> {
  return Object.fromEntries(names.map((name) => [name, (part[name] as Method).bind(part)])) as Pick<T, K>;
}

type Assert<T extends true> = T;
/** Compile-time guard: the method lists name every method of their part, so a composed store lacks none. */
export type PartMethodsAreComplete = Assert<
  [Exclude<keyof ChunkIndex, (typeof CHUNK_INDEX_METHODS)[number]>, Exclude<keyof DocumentTable, (typeof DOCUMENT_TABLE_METHODS)[number]>,
    Exclude<keyof FacetValueStore, (typeof FACET_VALUE_STORE_METHODS)[number]>, Exclude<keyof StoreAdmin, (typeof STORE_ADMIN_METHODS)[number]>] extends [never, never, never, never]
    ? true
    : false
>;

/** One store object from an adapter's parts: each method is its part's own, bound to it. */
export function composeVectorStore(parts: VectorStoreParts): VectorStore {
  return {
    ...bound(parts.chunks, CHUNK_INDEX_METHODS),
    ...bound(parts.documents, DOCUMENT_TABLE_METHODS),
    ...bound(parts.facets, FACET_VALUE_STORE_METHODS),
    ...bound(parts.admin, STORE_ADMIN_METHODS),
  };
}
