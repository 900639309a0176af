import { PermanentError } from '../errors.ts';
import { createLanceDbStore, type LanceDbStoreOptions } from './lancedb/lancedb-store.ts';
import { createWeaviateStore, type WeaviateStoreOptions } from './weaviate/weaviate-store.ts';
import type { VectorStore } from './vector-store.ts';

export * from './vector-store.ts';
export * from './filter.ts';
export { relativeScoreFusion, minMaxNormalise, type ScoredId, type FusedScore } from './fusion.ts';
export { createLanceDbStore, type LanceDbStoreOptions } from './lancedb/lancedb-store.ts';
export { createWeaviateStore, type WeaviateStoreOptions } from './weaviate/weaviate-store.ts';

/** Vector-store settings: Quarry's config (`config.vectorStore`) or a caller's own options. */
export type VectorStoreConfig = ({ kind: 'lancedb' } & LanceDbStoreOptions) | ({ kind: 'weaviate' } & WeaviateStoreOptions);

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
    case 'weaviate': {
      const { kind: _kind, ...options } = config;
      return createWeaviateStore(options);
    }
    default: {
      const unknown: never = config;
      throw new PermanentError('INVALID_CONFIG', `unknown vector store kind ${String((unknown as { kind: unknown }).kind)}`);
    }
  }
}
