import { z } from 'zod';
import { Chunk, EnrichedChunk } from './chunk.ts';
import { Coverage, LineInventory } from './coverage.ts';
import { DocumentRecord } from './document.ts';
import { LineSpan, Section } from './section.ts';
import { PlacedTable } from './table.ts';

/**
 * `sections.json`: the sections, every printed line they were made from (what coverage counts
 * against), and the tables read from the pages, whose lines are out of the sections' text.
 */
export const SectionsArtifact = z.object({ sections: z.array(Section), inventory: LineInventory.optional(), tables: z.array(PlacedTable).optional() });

/**
 * `chunks.json`: the chunks; per chunk (in chunk order) where each printed line of its body sits
 * in it (LineSpan in body offsets: what the viewer highlights a quote by) and the heading lines it
 * holds only in its breadcrumb; the document's coverage.
 */
export const ChunksArtifact = z.object({
  chunks: z.array(Chunk),
  spans: z.array(z.array(LineSpan)).optional(),
  headingLines: z.array(z.array(z.number().int().nonnegative())).optional(),
  coverage: Coverage.optional(),
});
export type ChunksArtifact = z.infer<typeof ChunksArtifact>;

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
