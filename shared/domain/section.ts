import { z } from 'zod';

/**
 * Where a printed line's text sits in a section's text: characters `[start, end)` of `text`
 * came from line `line` (its index in the document's reading-order lines, see
 * shared/sectionize/flat-lines.ts), printed on page `page`. This is what gives a chunk, and a
 * sentence quoted from it, the pages it was printed on, and what coverage is counted in.
 * A tuple, not an object: a long document has tens of thousands.
 */
export const LineSpan = z.tuple([
  z.number().int().nonnegative(),
  z.number().int().nonnegative(),
  z.number().int().positive(),
  z.number().int().nonnegative(),
]);
export type LineSpan = z.infer<typeof LineSpan>;

/** A section of a document: a heading and the text under it (before any child heading). */
export const Section = z.object({
  /** Stable within a version: `s<order>`. */
  id: z.string(),
  /** The heading as printed (trimmed), e.g. "제1조(목적)" or "4.1.2.  Cookie". */
  title: z.string(),
  /** Normalised heading: numbering removed, lower-cased, whitespace folded, e.g. "목적", "cookie". */
  heading: z.string(),
  /** Titles of the ancestors and this section, outermost first. */
  path: z.array(z.string()),
  /** 1 for top-level sections. */
  level: z.number().int().positive(),
  /** Reading order, 0-based. */
  order: z.number().int().nonnegative(),
  text: z.string(),
  pageStart: z.number().int().positive(),
  pageEnd: z.number().int().positive(),
  /** How the heading was found: a pattern, the outline, or none (density fallback / preamble); `toc` for a table of contents kept as text. */
  source: z.enum(['pattern', 'outline', 'typography', 'density', 'preamble', 'toc']),
  /** The printed lines `text` is made of, in order (see {@link LineSpan}); absent in artifacts written before spans existed. */
  spans: z.array(LineSpan).optional(),
  /** The lines the heading was printed on (its title; none for a preamble or a size-based part). */
  headingLines: z.array(z.number().int().nonnegative()).optional(),
});
export type Section = z.infer<typeof Section>;

/** Separator for `section_path` strings (breadcrumbs). */
export const PATH_SEPARATOR = ' > ';

export function sectionPathString(path: readonly string[]): string {
  return path.join(PATH_SEPARATOR);
}
