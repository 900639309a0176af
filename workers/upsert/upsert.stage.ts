import type { EmbeddingsMeta, EnrichedArtifact } from '../../shared/domain/index.ts';
import { PermanentError } from '../../shared/errors.ts';
import type { StoredChunk } from '../../shared/store/index.ts';

/**
 * Pairs each enriched chunk with its vector and the document's facets, keeping `created_at` of
 * chunks the store already has (content-addressed ids survive new versions, and so does their age).
 * @throws PermanentError DIMENSION_MISMATCH when vectors and chunks do not line up.
 */
export function upsertStage(
  enriched: EnrichedArtifact,
  embeddings: { meta: EmbeddingsMeta; vectors: readonly Float32Array[] },
  existingCreatedAt: ReadonlyMap<string, string>,
  now: string,
): StoredChunk[] {
  const { document, chunks } = enriched;
  const { meta, vectors } = embeddings;
  if (meta.count !== chunks.length || vectors.length !== chunks.length) {
    throw new PermanentError('DIMENSION_MISMATCH', `${chunks.length} chunks but ${vectors.length} vectors`);
  }
  return chunks.map((chunk, i) => {
    if (meta.chunkIds[i] !== chunk.chunk_id) {
      throw new PermanentError('DIMENSION_MISMATCH', `vector ${i} belongs to chunk ${meta.chunkIds[i]}, not ${chunk.chunk_id}`);
    }
    return {
      ...chunk,
      vector: vectors[i] as Float32Array,
      doc_type: document.doc_type,
      jurisdiction: document.jurisdiction,
      lang: document.lang,
      created_at: existingCreatedAt.get(chunk.chunk_id) ?? now,
      updated_at: now,
    };
  });
}
