/** Where the viewer draws a cited chunk's highlights from its printed lines: pure, so it is tested without a browser. */

import type { ChunkLines, PrintedLine } from '../../../core/chunk-lines.ts';

export type { ChunkLines, PrintedLine };

/** What the viewer falls back on when the lines cannot be had (an older gateway, a failed request). */
export const UNKNOWN_LINES: ChunkLines = { lines: [], exact: false };

/** A highlight, in viewport (CSS) pixels from the page's top-left corner. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The part of a pdf.js PageViewport the boxes need (structural, so tests can fake it). */
export interface ViewportLike {
  /** The page's view box in PDF user space, `[x0, y0, x1, y1]`: what extraction measured from. */
  viewBox: readonly number[];
  /** PDF user-space rectangle `[x1, y1, x2, y2]` → viewport corners, in whatever order the page's rotation leaves them. */
  convertToViewportRectangle(rect: number[]): number[];
}

// How far a box reaches below the baseline and above it, in font sizes: descenders (g, p, y) hang
// about a quarter of the size below; capitals and accents reach about the size above.
const DESCENT = 0.25;
const ASCENT = 1;

/**
 * The API path of a chunk's printed lines; with a quote (`[from, to)` of the chunk's body), only
 * the lines it covers.
 */
export function linesPath(chunkId: string, quote?: { from: number; to: number }): string {
  const path = `/v1/chunks/${encodeURIComponent(chunkId)}/lines`;
  return quote ? `${path}?from=${quote.from}&to=${quote.to}` : path;
}

/** One box per line printed on `page`, placed by the viewport: so they follow zoom, rotation and page turns. */
export function lineBoxes(lines: readonly PrintedLine[], page: number, viewport: ViewportLike): Box[] {
  // Extraction measured from the view box's corner; pdf.js places user space itself.
  const [ox = 0, oy = 0] = viewport.viewBox;
  return lines
    .filter((l) => l.page === page)
    .map((l) => {
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle([ox + l.x, oy + l.y - DESCENT * l.height, ox + l.x + l.width, oy + l.y + ASCENT * l.height]);
      return { left: Math.min(x1, x2), top: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
    });
}

/** What the viewer highlights for a citation, and from what. */
export type CitedHighlight =
  /** The table cell a figure was read from: its box as printed (known with the citation, no request). */
  | { by: 'cell'; lines: PrintedLine[] }
  /** The lines the gateway says the quote (or, without one, the whole chunk) was printed on. */
  | { by: 'lines'; path: string };

/**
 * Where a citation's highlight comes from: a cited cell with a box is highlighted by that box (a
 * figure is one cell, not the table's lines); otherwise the quoted lines (`quote` is `[start, end)`
 * of the body, the lines endpoint's `from`/`to`), or every line of the chunk when nothing is quoted.
 */
export function citedHighlight(citation: {
  chunkId: string;
  quote?: { start: number; end: number };
  cell?: { page: number; box?: readonly [number, number, number, number] };
}): CitedHighlight {
  const { cell, quote } = citation;
  if (cell?.box) {
    // The box is [x, baseline y, width, font size]: the same measure as a printed line's.
    const [x, y, width, height] = cell.box;
    return { by: 'cell', lines: [{ page: cell.page, x, y, width, height }] };
  }
  return { by: 'lines', path: linesPath(citation.chunkId, quote ? { from: quote.start, to: quote.end } : undefined) };
}
