import { z } from 'zod';
import { IsoDate } from './document.ts';
import { DocId, Version } from './ids.ts';

export const Chunk = z.object({
  chunk_id: z.string().uuid(),
  doc_id: DocId,
  version: Version,
  /** Normalised heading of the innermost section. */
  section: z.string(),
  section_path: z.string(),
  body: z.string(),
  /** Breadcrumb + body: what gets embedded. */
  embedding_text: z.string(),
  page_start: z.number().int().positive(),
  page_end: z.number().int().positive(),
  chunk_index: z.number().int().nonnegative(),
  total_chunks: z.number().int().positive(),
  token_count: z.number().int().nonnegative(),
});
export type Chunk = z.infer<typeof Chunk>;

/** A chunk after enrichment: entities (with spacing/alias variants) and validity dates. */
export const EnrichedChunk = Chunk.extend({
  entities: z.array(z.string()),
  valid_from: IsoDate.nullable(),
  valid_to: IsoDate.nullable(),
});
export type EnrichedChunk = z.infer<typeof EnrichedChunk>;
