import { z } from 'zod';
import { Chunk, EnrichedChunk } from './chunk.ts';
import { DocumentRecord } from './document.ts';
import { Section } from './section.ts';

/** `sections.json`. */
export const SectionsArtifact = z.object({ sections: z.array(Section) });

/** `chunks.json`. */
export const ChunksArtifact = z.object({ chunks: z.array(Chunk) });

/** `enriched.json`: the Document row and its chunks, ready to embed. */
export const EnrichedArtifact = z.object({ document: DocumentRecord, chunks: z.array(EnrichedChunk) });
export type EnrichedArtifact = z.infer<typeof EnrichedArtifact>;

/** `embeddings.json`; the vectors themselves are `embeddings.bin`, float32 little-endian, row-major. */
export const EmbeddingsMeta = z.object({
  model: z.string(),
  dimension: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  /** Chunk ids in row order, so vectors can never be paired with the wrong chunk. */
  chunkIds: z.array(z.string()),
});
export type EmbeddingsMeta = z.infer<typeof EmbeddingsMeta>;
