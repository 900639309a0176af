/**
 * Coverage: the share of a document's printed body text that is indexed. Counted per printed line
 * (see LineSpan): a line is indexed when some chunk holds it, in its body or as the heading of
 * the section it is filed under. Running headers, footers and page numbers are counted apart.
 */
import { z } from 'zod';

/** Below this share a document's status record carries a TEXT_NOT_INDEXED warning naming the pages. */
export const MIN_COVERAGE = 0.995;

/** Every printed line of a document in reading order (the sectionizer's flat lines): its page and non-space characters. */
export const LineInventory = z.object({
  pages: z.array(z.number().int().positive()),
  chars: z.array(z.number().int().nonnegative()),
  /** Non-space characters removed as running headers, footers and page numbers. */
  runningChars: z.number().int().nonnegative(),
});
export type LineInventory = z.infer<typeof LineInventory>;

export const Coverage = z.object({
  /** indexedChars / bodyChars (1 for a document with no body text). */
  ratio: z.number().min(0).max(1),
  bodyChars: z.number().int().nonnegative(),
  indexedChars: z.number().int().nonnegative(),
  runningChars: z.number().int().nonnegative(),
  /** Pages with body text that no chunk holds, and how many characters of it, in page order. */
  unindexed: z.array(z.object({ page: z.number().int().positive(), chars: z.number().int().positive() })),
});
export type Coverage = z.infer<typeof Coverage>;
