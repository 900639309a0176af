import type { FacetName, FacetValueVector } from './facet-values.ts';

/**
 * The FacetValueVector collection: one vector per (`facet`, `value`), which the facet planner
 * compares a question with. Part of the vector-store port (docs/architecture.md §2); every
 * adapter passes `tests/contract/facet-values.contract.ts`. The collection is created by
 * `StoreAdmin.ensureSchema`.
 */
export interface FacetValueStore {
  /**
   * Inserts or replaces facet-value vectors by (`facet`, `value`); the last row of a pair wins
   * inside one call.
   * @throws PermanentError `STORE_REJECTED` before `ensureSchema` or for a malformed row.
   * @throws PermanentError `DIMENSION_MISMATCH` for a vector of the wrong length.
   */
  upsertFacetValues(rows: FacetValueVector[]): Promise<void>;
  /**
   * Makes `rows` the complete set of `facet`'s values: upserts them first, then deletes every
   * other value of that facet (values whose chunks are all gone), so a reader never sees the
   * facet empty. Rows of another facet are refused; other facets are untouched.
   * @throws PermanentError `STORE_REJECTED` before `ensureSchema`, for a malformed row or one
   *   of another facet.
   * @throws PermanentError `DIMENSION_MISMATCH` for a vector of the wrong length.
   * @throws PermanentError `INVALID_PAYLOAD` for an unknown facet.
   */
  replaceFacetValues(facet: FacetName, rows: FacetValueVector[]): Promise<{ deleted: number }>;
  /**
   * Facet-value vectors of one facet (or all), sorted by facet then value, vectors included.
   * Before `ensureSchema` (or any rebuild) the list is empty.
   * @throws PermanentError `INVALID_PAYLOAD` for an unknown facet.
   */
  listFacetValues(facet?: FacetName): Promise<FacetValueVector[]>;
}

/** The methods of {@link FacetValueStore}, for composing a store from its parts (vector-store.ts). */
export const FACET_VALUE_STORE_METHODS = ['upsertFacetValues', 'replaceFacetValues', 'listFacetValues'] as const satisfies readonly (keyof FacetValueStore)[];
