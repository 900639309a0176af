import type { PagePart } from './limits.ts';

/** Inclusive 1-based page numbers; empty when `to < from`. */
export interface PageRange {
  from: number;
  to: number;
}

/** A part reads at least this many pages: a shorter document is read by part 0 alone. */
export const MIN_PAGES_PER_PART = 16;

/**
 * The pages part `part.index` of `part.of` reads in a document of `pageCount` pages: consecutive
 * ranges of near-equal length, as many as the document has {@link MIN_PAGES_PER_PART} pages for
 * (at least one); a part beyond those reads nothing. Pure.
 */
export function pageRange(pageCount: number, part: PagePart): PageRange {
  const parts = Math.max(1, Math.min(part.of, Math.floor(pageCount / MIN_PAGES_PER_PART)));
  if (part.index >= parts) return { from: 1, to: 0 };
  return { from: Math.floor((part.index * pageCount) / parts) + 1, to: Math.floor(((part.index + 1) * pageCount) / parts) };
}
