/** A chunk's printed lines and pages, from its section's line spans (see LineSpan). */
import type { LineSpan } from '../domain/index.ts';

/** The spans holding any character of `[start, end)` of the section's text, in order. */
export function spansIn(spans: readonly LineSpan[], start: number, end: number): LineSpan[] {
  return spans.filter(([s, e]) => s < end && e > start);
}

/** The pages of the first and last printed line among `spans` (lowest and highest, should reading order wander), or null for none. */
export function pagesOf(spans: readonly LineSpan[]): { pageStart: number; pageEnd: number } | null {
  if (spans.length === 0) return null;
  let pageStart = Infinity;
  let pageEnd = 0;
  for (const [, , page] of spans) {
    pageStart = Math.min(pageStart, page);
    pageEnd = Math.max(pageEnd, page);
  }
  return { pageStart, pageEnd };
}

/** Line indices held: the spans' lines and `extra` (heading lines), each once, ascending. */
export function linesOf(spans: readonly LineSpan[], extra: readonly number[] = []): number[] {
  return [...new Set([...spans.map((s) => s[3]), ...extra])].sort((a, b) => a - b);
}

/**
 * A body's pages by offset (see Chunk.line_pages): `[offset, page]` where the text from `offset`
 * on was printed on `page`, one entry per change of page in body order, the first at offset 0.
 */
export function linePages(spans: readonly LineSpan[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [start, , page] of spans) {
    const last = out[out.length - 1];
    if (!last) out.push([0, page]);
    else if (last[1] !== page) out.push([start, page]);
  }
  return out;
}

/**
 * The pages a quoted range `[start, end)` of a body was printed on, from its `line_pages`; the
 * chunk's own range when it has none (stored before line pages existed).
 */
export function quotedPages(linePagesOfBody: readonly (readonly [number, number])[] | undefined, start: number, end: number, fallback: { pageStart: number; pageEnd: number }): { pageStart: number; pageEnd: number } {
  if (!linePagesOfBody || linePagesOfBody.length === 0) return fallback;
  let pageStart = Infinity;
  let pageEnd = 0;
  linePagesOfBody.forEach(([from, page], i) => {
    const to = linePagesOfBody[i + 1]?.[0] ?? Infinity;
    if (from < Math.max(end, start + 1) && to > start) {
      pageStart = Math.min(pageStart, page);
      pageEnd = Math.max(pageEnd, page);
    }
  });
  return pageEnd === 0 ? fallback : { pageStart, pageEnd };
}
