import { z } from 'zod';

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
  /** How the heading was found: a pattern, the outline, or none (density fallback / preamble). */
  source: z.enum(['pattern', 'outline', 'typography', 'density', 'preamble']),
});
export type Section = z.infer<typeof Section>;

/** Separator for `section_path` strings (breadcrumbs). */
export const PATH_SEPARATOR = ' > ';

export function sectionPathString(path: readonly string[]): string {
  return path.join(PATH_SEPARATOR);
}
