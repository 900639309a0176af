/** A chunk's printed lines and pages, from its section's line spans (see LineSpan). */
import type { LineSpan } from '../domain/section.ts';

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
