/**
 * The VectorStore port: its surface, filters and their evaluation, hybrid fusion, the keyword
 * text, the embedder record, the probes of quarry verify sanity; and its adapters, lancedb/ and
 * weaviate/, each imported by createVectorStore when that store is opened (so this index loads
 * neither LanceDB nor weaviate-client).
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: createVectorStore, createLazyVectorStore, VectorStore, the filter builders.
 */

import { PermanentError } from '../errors.ts';
import type { LanceDbStoreOptions } from './lancedb/lancedb-store.ts';
import type { WeaviateStoreOptions } from './weaviate/weaviate-store.ts';
import type { VectorStore } from './vector-store.ts';

export {
  FACET_NAMES,
  FACET_VALUE_MAX_CHARS,
  FacetName,
  StoredChunkWithoutVector,
  VECTOR_INDEX_STATES,
  type FacetValueVector,
  type HybridHit,
  type HybridQuery,
  type MaintenanceReport,
  type StoredChunk,
  type VectorStore,
} from './vector-store.ts';
export { and, eq, FILTER_FIELDS, isIn, range, temporalClamp, type Filter } from './filter.ts';
export { relativeScoreFusion, minMaxNormalise, type ScoredId, type FusedScore } from './fusion.ts';
// Only the adapters' option types here: each adapter's module (and its client library: LanceDB's
// native binding, weaviate-client with gRPC) is loaded by createVectorStore when that store is
// opened, so a process that never opens one (or opens the other) does not pay for its import.
export type { LanceDbStoreOptions } from './lancedb/lancedb-store.ts';
export type { WeaviateStoreOptions } from './weaviate/weaviate-store.ts';

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
      const { createLanceDbStore } = await import('./lancedb/lancedb-store.ts');
      return createLanceDbStore(options);
    }
    case 'weaviate': {
      const { kind: _kind, ...options } = config;
      const { createWeaviateStore } = await import('./weaviate/weaviate-store.ts');
      return createWeaviateStore(options);
    }
    default: {
      const unknown: never = config;
      throw new PermanentError('INVALID_CONFIG', `unknown vector store kind ${String((unknown as { kind: unknown }).kind)}`);
    }
  }
}

export { withEmbedderCheck } from './embedder-record.ts';
export { spellOutLoneGreek } from './keyword-text.ts';
export { createLazyVectorStore } from './lazy-store.ts';
export {
  evaluateProbe,
  formatSanityReport,
  isProbe,
  planSanity,
  sanityExitCode,
  type SanityFacts,
  type SanityObservation,
  type SanityOutcome,
  type SanityQuery,
} from './sanity.ts';
export { americanSpellingOfText } from './spelling.ts';
