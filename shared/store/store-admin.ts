/**
 * The embedder a store's vectors come from, as recorded when its schema was created (vectors of
 * two embedders are not comparable, even of one dimension: see embedder-record.ts).
 */
export interface EmbedderRecord {
  /** `Embedder.model`, e.g. `quarry-hash-v2/d384/...` or `text-embedding-3-small`. */
  model: string;
  dimension: number;
}

/**
 * The vector index after maintenance: `exact` (none: the store is small enough to scan),
 * `current` (nothing to do), `built`, `rebuilt`, or `server` (the server keeps it current on
 * every write).
 */
export const VECTOR_INDEX_STATES = ['exact', 'current', 'built', 'rebuilt', 'server'] as const;

/** What {@link StoreAdmin.maintain} found and did. */
export interface MaintenanceReport {
  /** See {@link VECTOR_INDEX_STATES}. */
  vectorIndex: (typeof VECTOR_INDEX_STATES)[number];
  /** The numbers the decision was made on. */
  reason: string;
  seconds: number;
}

/**
 * The store as a whole: its schema, the embedder it records, index upkeep and its handles.
 * Part of the vector-store port (docs/architecture.md §2); every adapter passes
 * `tests/contract/store-admin.contract.ts`.
 */
export interface StoreAdmin {
  /**
   * Creates the Document, Chunk and FacetValueVector collections and their indexes if missing
   * (a store made before a collection existed gains it here). Idempotent.
   * Records `model` (the embedder that writes the vectors, `Embedder.model`) when it creates the
   * store, or when a store made before records existed holds no chunk yet; one that already holds
   * chunks stays without a record (see {@link StoreAdmin.embedderRecord}).
   * @throws PermanentError `DIMENSION_MISMATCH` when the store exists with another dimension.
   * @throws PermanentError `EMBEDDER_MISMATCH` when the store recorded another model.
   * @throws PermanentError `STORE_REJECTED` for a blank model name.
   */
  ensureSchema(opts: { dimension: number; model: string }): Promise<void>;
  /** Vector dimension of the existing store, or null before `ensureSchema`. */
  dimension(): Promise<number | null>;
  /**
   * The embedder recorded by `ensureSchema`, or null before it and for a store made before
   * records existed that already held chunks then (its embedder is unknown).
   */
  embedderRecord(): Promise<EmbedderRecord | null>;
  /**
   * Brings the search indexes up to date with what was written, where the store does not do it
   * on every write: builds an ANN index on the vectors once the store is large enough, and
   * rebuilds one that writes have fragmented. Slow when it builds (tens of seconds per 100k
   * chunks), so it runs off the write path (the debounced facet-rebuild job calls it); cheap when
   * there is nothing to do. Reads and writes go on meanwhile. Idempotent.
   * @throws RetryableError `STORE_UNAVAILABLE` on I/O failure or persistent commit conflicts.
   */
  maintain(): Promise<MaintenanceReport>;
  /** Releases files and handles; the store (every part of it) is unusable afterwards. */
  close(): Promise<void>;
}

/** The methods of {@link StoreAdmin}, for composing a store from its parts (vector-store.ts). */
export const STORE_ADMIN_METHODS = ['ensureSchema', 'dimension', 'embedderRecord', 'maintain', 'close'] as const satisfies readonly (keyof StoreAdmin)[];
