import type { EnrichedChunk } from '../../shared/domain/index.ts';
import { assertDimension, embedWithCacheStats, type Embedder, type EmbeddingCache } from '../../shared/embed/index.ts';

/** Ports and settings of the embed stage. */
export interface EmbedStageDeps {
  embedder: Embedder;
  cache: EmbeddingCache;
  /** Texts per embedder call. */
  batchSize: number;
  /**
   * Dimension the vector store was created with, or `null` before the store exists. Checked
   * before any text is embedded, so a model switch fails fast instead of after paying for it.
   */
  expectedDimension: number | null;
  /** Cancels between batches. */
  signal?: AbortSignal;
}

/** Output of the embed stage: one vector per chunk, in chunk order, as plain arrays for JSON artifacts. */
export interface EmbedStageResult {
  model: string;
  dimension: number;
  vectors: number[][];
  /** Distinct chunk texts served from the embedding cache. */
  cachedCount: number;
}

/**
 * Embeds each chunk's `embedding_text` (breadcrumb + body), in chunk order, through the cache.
 *
 * @throws PermanentError `DIMENSION_MISMATCH` when the embedder's dimension differs from the store's.
 * @throws PermanentError `EMBEDDING_QUALITY` naming the chunk index of a NaN/zero vector.
 * @throws RetryableError / PermanentError `EMBEDDER_UNAVAILABLE` from the embedder.
 */
export async function embedStage(chunks: EnrichedChunk[], deps: EmbedStageDeps): Promise<EmbedStageResult> {
  const { embedder, cache, batchSize, expectedDimension, signal } = deps;
  if (expectedDimension !== null) assertDimension(expectedDimension, embedder.dimension, `embedder ${embedder.model} vs store`);
  const { vectors, cachedCount } = await embedWithCacheStats(
    embedder,
    chunks.map((c) => c.embedding_text),
    cache,
    signal ? { batchSize, signal } : { batchSize },
  );
  return {
    model: embedder.model,
    dimension: embedder.dimension,
    vectors: vectors.map((v) => Array.from(v)),
    cachedCount,
  };
}
