import { describe, expect, it } from 'vitest';
import { ChunkLinesQuery, printedLines } from '../../apps/gateway/routes/chunk-lines.ts';
import type { ExtractedDocument, TextLine } from '../../shared/domain/extracted.ts';
import type { LineSpan } from '../../shared/domain/section.ts';

const line = (text: string, y: number, width?: number): TextLine => ({ text, x: 72, y, fontSize: 10, ...(width === undefined ? {} : { width }) });

/** Two pages of two lines each: reading-order indexes 0, 1 (page 1) and 2, 3 (page 2). */
function doc(pages: TextLine[][]): ExtractedDocument {
  return { pageCount: pages.length, pages: pages.map((lines, i) => ({ number: i + 1, width: 595, height: 842, lines })), outline: [], info: { title: null, creationDate: null }, strippedLines: [] };
}
const TWO_PAGES = doc([
  [line('alpha', 700, 30), line('beta', 686, 25)],
  [line('gamma', 700, 40), line('delta', 686, 35)],
]);
// The body "beta gammadelta" from lines 1, 2, 3: lines joined with no separator (as CJK text
// wraps) leave spans that touch, [5, 10) and [10, 15) here, which is where the ends matter.
const SPANS: LineSpan[] = [
  [0, 4, 1, 1],
  [5, 10, 2, 2],
  [10, 15, 2, 3],
];

describe('printedLines: where a chunk\'s lines were printed', () => {
  it('gives every line of the chunk, in body order, at its page and position, the font size as height', () => {
    expect(printedLines(SPANS, TWO_PAGES)).toEqual({
      exact: true,
      lines: [
        { page: 1, x: 72, y: 686, width: 25, height: 10 },
        { page: 2, x: 72, y: 700, width: 40, height: 10 },
        { page: 2, x: 72, y: 686, width: 35, height: 10 },
      ],
    });
  });

  it('keeps the lines a quote [from, to) overlaps: a line that ends where it starts, or starts where it ends, is out', () => {
    const pick = (from?: number, to?: number) => printedLines(SPANS, TWO_PAGES, { from, to }).lines.map((l) => [l.page, l.y]);
    expect(pick(10, 15)).toEqual([[2, 686]]);
    expect(pick(6, 11)).toEqual([
      [2, 700],
      [2, 686],
    ]);
    expect(pick(2)).toEqual([
      [1, 686],
      [2, 700],
      [2, 686],
    ]);
    expect(pick(undefined, 5)).toEqual([[1, 686]]);
    // An empty quote still names the line it sits in.
    expect(pick(12, 12)).toEqual([[2, 686]]);
    // Past the body: nothing to highlight, and that is exact.
    expect(printedLines(SPANS, TWO_PAGES, { from: 40 })).toEqual({ lines: [], exact: true });
  });

  it('names a line once even when the chunk holds it in two spans', () => {
    expect(printedLines([[0, 3, 1, 0], [4, 8, 1, 0], [9, 12, 1, 1]], TWO_PAGES).lines).toHaveLength(2);
  });

  it('is inexact, with no lines, when a line has no width (older extraction) or is not in the extraction', () => {
    const older = doc([[line('alpha', 700), line('beta', 686, 25)]]);
    expect(printedLines([[0, 5, 1, 0]], older)).toEqual({ lines: [], exact: false });
    // A quote that avoids the line without a width is still exact.
    expect(printedLines([[0, 5, 1, 0], [6, 10, 1, 1]], older, { from: 6 }).exact).toBe(true);
    expect(printedLines([[0, 5, 3, 9]], TWO_PAGES)).toEqual({ lines: [], exact: false });
  });
});

describe('ChunkLinesQuery', () => {
  it('takes whole-number offsets, either end open, and refuses anything else', () => {
    expect(ChunkLinesQuery.parse({ from: '3', to: '9' })).toEqual({ from: 3, to: 9 });
    expect(ChunkLinesQuery.parse({})).toEqual({});
    for (const bad of [{ from: '' }, { from: '-1' }, { from: '1.5' }, { from: ' 2' }, { from: '1e3' }, { from: '5', to: '4' }, { from: ['1', '2'] }, { page: '1' }]) {
      expect(ChunkLinesQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
