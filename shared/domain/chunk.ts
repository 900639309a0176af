import { z } from 'zod';
import { IsoDate } from './document.ts';
import { DocId, Version } from './ids.ts';
import { DocTable } from './table.ts';

/** See {@link Chunk} `line_pages`. */
export const LinePages = z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()]));
export type LinePages = z.infer<typeof LinePages>;

/** `line_pages` as a store keeps it: one JSON text cell (null when the chunk has none). */
export function encodeLinePages(linePages: LinePages | undefined): string | null {
  return linePages && linePages.length > 0 ? JSON.stringify(linePages) : null;
}

/** A stored `line_pages` cell back; anything unreadable (an older row, a damaged cell) reads as none. */
export function decodeLinePages(cell: unknown): LinePages | undefined {
  if (typeof cell !== 'string' || cell === '') return undefined;
  try {
    const parsed = LinePages.safeParse(JSON.parse(cell));
    return parsed.success && parsed.data.length > 0 ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `{ line_pages }` from a stored cell, or nothing: the field is optional, never present as undefined. */
export function optionalLinePages(cell: unknown): { line_pages?: LinePages } {
  const linePages = decodeLinePages(cell);
  return linePages ? { line_pages: linePages } : {};
}

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
  /**
   * The body's pages by offset: `[offset, page]` where the text from `offset` on was printed on
   * `page`, one entry per change of page (the first at 0). What gives a quoted sentence its own
   * pages; absent for chunks made before lines were carried.
   */
  line_pages: z.lazy(() => LinePages).optional(),
  /** The table this chunk holds, as data (its body is the table as Markdown); absent for prose. */
  table: DocTable.optional(),
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
