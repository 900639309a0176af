import { PermanentError } from '../errors.ts';
import { createLanceDbStore, type LanceDbStoreOptions } from './lancedb/lancedb-store.ts';
import type { VectorStore } from './vector-store.ts';

export * from './vector-store.ts';
export * from './filter.ts';
export { relativeScoreFusion, minMaxNormalise, type ScoredId, type FusedScore } from './fusion.ts';
export { createLanceDbStore, type LanceDbStoreOptions } from './lancedb/lancedb-store.ts';

/** Vector-store settings as they appear in Quarry's config (Weaviate joins this union later). */
export type VectorStoreConfig = { kind: 'lancedb'; dir: string } & Omit<LanceDbStoreOptions, 'dir'>;

/**
 * Opens the vector store named by `config.kind`.
 *
 * @throws PermanentError `INVALID_CONFIG` for an unknown kind.
 * @throws RetryableError `STORE_UNAVAILABLE` when the store cannot be opened.
 */
export async function createVectorStore(config: VectorStoreConfig): Promise<VectorStore> {
  switch (config.kind) {
    case 'lancedb': {
      const { kind: _kind, ...options } = config;
      return createLanceDbStore(options);
    }
    default: {
      const kind: never = config.kind;
      throw new PermanentError('INVALID_CONFIG', `unknown vector store kind ${String(kind)}`);
    }
  }
}
