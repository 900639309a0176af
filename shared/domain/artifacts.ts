import { z } from 'zod';
import { Chunk, EnrichedChunk } from './chunk.ts';
import { Coverage, LineInventory } from './coverage.ts';
import { DocumentRecord } from './document.ts';
import { Section } from './section.ts';

/** `sections.json`: the sections, and every printed line they were made from (what coverage counts against). */
export const SectionsArtifact = z.object({ sections: z.array(Section), inventory: LineInventory.optional() });

const LineIndexes = z.array(z.array(z.number().int().nonnegative()));

/**
 * `chunks.json`: the chunks; per chunk (in chunk order) the printed lines whose text is in its
 * body and the heading lines it holds only in its breadcrumb; the document's coverage.
 */
export const ChunksArtifact = z.object({ chunks: z.array(Chunk), lines: LineIndexes.optional(), headingLines: LineIndexes.optional(), coverage: Coverage.optional() });

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
