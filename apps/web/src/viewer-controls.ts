/** What the citation viewer's controls compute: pure, so it is tested without a browser. */

/** A citation's pages, 1-based and inclusive. */
export interface PageSpan {
  start: number;
  end: number;
}

/** "p. 3" or "pp. 3–4". */
export function pagesLabel(p: PageSpan): string {
  return p.start === p.end ? `p. ${p.start}` : `pp. ${p.start}–${p.end}`;
}

/**
 * The pages the viewer may page through for a citation: its span, kept inside the document (a
 * span past the last page, from an older version of the file, shows what there is).
 */
export function citedRange(p: PageSpan, numPages: number): { first: number; last: number } {
  const last = Math.max(1, Math.min(Math.max(p.start, p.end), numPages));
  const first = Math.max(1, Math.min(p.start, last));
  return { first, last };
}

/** The page after (+1) or before (-1) `page`, staying within `range`. */
export function turnPage(page: number, step: 1 | -1, range: { first: number; last: number }): number {
  return Math.min(range.last, Math.max(range.first, page + step));
}

/** Zoom steps, as fractions of the width that fits the viewer. */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

/** The next zoom step in (+1) or out (-1) from `zoom`; the same at either end. */
export function stepZoom(zoom: number, step: 1 | -1): number {
  if (step > 0) return ZOOM_STEPS.find((z) => z > zoom + 1e-9) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
  return [...ZOOM_STEPS].reverse().find((z) => z < zoom - 1e-9) ?? ZOOM_STEPS[0];
}
