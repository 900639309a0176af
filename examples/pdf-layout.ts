/**
 * Page layout for the example PDF writer: turns blocks into positioned drawing operations.
 *
 * Pure: no pdf-lib, no fonts, no I/O. Text width comes from an injected measure function, so the
 * same layout runs against Helvetica metrics or Noto Sans KR metrics, and a caller can count pages
 * without rendering (the test corpus does, to hit a page range).
 */

/** One unit of document content, in reading order. */
export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[]; ordered?: boolean }
  | { type: 'table'; header: string[]; rows: string[][] };

/** Regular body text or bold (title, headings, table header). */
export type Face = 'regular' | 'bold';

/** Width in points of `text` set in `face` at `size` points. */
export type MeasureText = (face: Face, text: string, size: number) => number;

/** A drawing operation in PDF user space (origin bottom-left, points); gray 0 = black, 1 = white. */
export type DrawOp =
  | { op: 'text'; face: Face; size: number; x: number; y: number; text: string; gray: number }
  | { op: 'line'; x1: number; y1: number; x2: number; y2: number; thickness: number; gray: number }
  | { op: 'rect'; x: number; y: number; width: number; height: number; gray: number };

/** Page size and margins in points. */
export interface PageGeometry {
  width: number;
  height: number;
  marginTop: number;
  marginBottom: number;
  marginLeft: number;
  marginRight: number;
}

/** ISO A4 with margins that leave room for the running header and footer. */
export const A4: PageGeometry = { width: 595.28, height: 841.89, marginTop: 78, marginBottom: 70, marginLeft: 64, marginRight: 64 };
/** US Letter with the same margins as {@link A4}. */
export const LETTER: PageGeometry = { width: 612, height: 792, marginTop: 78, marginBottom: 70, marginLeft: 64, marginRight: 64 };

/** What the layout needs to know about a document. */
export interface LayoutInput {
  title: string;
  lang: 'en' | 'ko';
  blocks: Block[];
}

// Hangul needs a little more leading than Latin text to stay readable.
const LEADING = { en: 1.45, ko: 1.65 } as const;
const SIZE = { title: 19, h1: 15, h2: 12.5, h3: 11, body: 10.5, table: 9.5, furniture: 8.5 } as const;
const SPACE_BEFORE = { 1: 16, 2: 11, 3: 8 } as const;
const CELL_PAD = 4;
const LIST_INDENT = 22;

/**
 * Breaks `text` into lines no wider than `width`. Lines break at spaces (Korean is spaced by
 * word, 어절, so the same rule serves both languages); a single word wider than the line is
 * broken between characters, which is how Korean typesetting treats an unbreakable run.
 */
export function wrapText(text: string, width: number, measure: (s: string) => number): string[] {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const lines: string[] = [];
  const spaceWidth = measure(' ');
  let current = '';
  let currentWidth = 0;
  for (const word of words) {
    const wordWidth = measure(word);
    if (current && currentWidth + spaceWidth + wordWidth <= width) {
      current += ` ${word}`;
      currentWidth += spaceWidth + wordWidth;
      continue;
    }
    if (current) lines.push(current);
    if (wordWidth <= width) {
      current = word;
      currentWidth = wordWidth;
      continue;
    }
    current = '';
    currentWidth = 0;
    for (const ch of Array.from(word)) {
      const chWidth = measure(ch);
      if (current && currentWidth + chWidth > width) {
        lines.push(current);
        current = '';
        currentWidth = 0;
      }
      current += ch;
      currentWidth += chWidth;
    }
  }
  if (current) lines.push(current);
  return lines.length > 0 ? lines : [''];
}

/** Shortens `text` with an ellipsis until it fits `width`. */
function fitText(text: string, width: number, measure: (s: string) => number): string {
  if (measure(text) <= width) return text;
  const chars = Array.from(text);
  while (chars.length > 1 && measure(`${chars.join('')}…`) > width) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}

/** The page footer text: "Page N" in English, "N쪽" in Korean. */
export function footerText(lang: 'en' | 'ko', pageNumber: number): string {
  return lang === 'ko' ? `${pageNumber}쪽` : `Page ${pageNumber}`;
}

/**
 * Lays out a document: a title on the first page, then the blocks, with the title as a running
 * header and a page number footer on every page. Headings are kept with the two lines after them,
 * and a table row is never split (its header row repeats on the next page).
 *
 * Layout is prefix-stable: the first k blocks land where they would if the document ended after
 * them, so `blockEndPages[k - 1]` is the page count of that shorter document.
 *
 * @param blockEndPages when given, receives for each block the number of the page it ends on.
 * @returns one list of drawing operations per page, in content order (header, body, footer).
 */
export function layoutDocument(
  input: LayoutInput,
  measure: MeasureText,
  geometry: PageGeometry = A4,
  blockEndPages?: number[],
): DrawOp[][] {
  const lead = LEADING[input.lang];
  const left = geometry.marginLeft;
  const width = geometry.width - geometry.marginLeft - geometry.marginRight;
  const top = geometry.height - geometry.marginTop;
  const bottom = geometry.marginBottom;
  const bodyLine = SIZE.body * lead;

  const pages: DrawOp[][] = [];
  let ops: DrawOp[] = [];
  let y = top;
  let atPageTop = true;

  const startPage = (): void => {
    ops = [];
    pages.push(ops);
    const headerY = geometry.height - geometry.marginTop + 30;
    const header = fitText(input.title, width, (s) => measure('regular', s, SIZE.furniture));
    ops.push({ op: 'text', face: 'regular', size: SIZE.furniture, x: left, y: headerY, text: header, gray: 0.4 });
    ops.push({ op: 'line', x1: left, y1: headerY - 6, x2: left + width, y2: headerY - 6, thickness: 0.5, gray: 0.6 });
    y = top;
    atPageTop = true;
  };
  const finishPage = (): void => {
    const footer = footerText(input.lang, pages.length);
    const footerWidth = measure('regular', footer, SIZE.furniture);
    ops.push({ op: 'text', face: 'regular', size: SIZE.furniture, x: left + (width - footerWidth) / 2, y: bottom - 34, text: footer, gray: 0.4 });
  };
  const ensure = (height: number): void => {
    if (y - height < bottom && !atPageTop) {
      finishPage();
      startPage();
    }
  };
  const gap = (points: number): void => {
    if (!atPageTop) y -= points;
  };
  /** Emits one line of text whose line box starts at the current y. */
  const textLine = (text: string, face: Face, size: number, x: number, lineHeight: number): void => {
    const baseline = y - (lineHeight - size) / 2 - size * 0.8;
    ops.push({ op: 'text', face, size, x, y: baseline, text, gray: 0 });
    y -= lineHeight;
    atPageTop = false;
  };
  const paragraphLines = (text: string, face: Face, size: number, x: number, w: number): string[] =>
    wrapText(text, w, (s) => measure(face, s, size));

  startPage();

  const titleLines = paragraphLines(input.title, 'bold', SIZE.title, left, width);
  for (const line of titleLines) textLine(line, 'bold', SIZE.title, left, SIZE.title * 1.3);
  y -= 12;

  for (const block of input.blocks) {
    switch (block.type) {
      case 'heading': {
        const size = block.level === 1 ? SIZE.h1 : block.level === 2 ? SIZE.h2 : SIZE.h3;
        const lineHeight = size * 1.35;
        const lines = paragraphLines(block.text, 'bold', size, left, width);
        ensure(SPACE_BEFORE[block.level] + lines.length * lineHeight + 4 + 2 * bodyLine);
        gap(SPACE_BEFORE[block.level]);
        for (const line of lines) textLine(line, 'bold', size, left, lineHeight);
        y -= 4;
        break;
      }
      case 'paragraph': {
        for (const line of paragraphLines(block.text, 'regular', SIZE.body, left, width)) {
          ensure(bodyLine);
          textLine(line, 'regular', SIZE.body, left, bodyLine);
        }
        y -= 6;
        break;
      }
      case 'list': {
        block.items.forEach((item, index) => {
          const marker = block.ordered ? `${index + 1}.` : '•';
          const lines = paragraphLines(item, 'regular', SIZE.body, left + LIST_INDENT, width - LIST_INDENT);
          lines.forEach((line, lineIndex) => {
            ensure(bodyLine);
            if (lineIndex === 0) {
              const markerX = left + LIST_INDENT - 6 - measure('regular', marker, SIZE.body);
              const baseline = y - (bodyLine - SIZE.body) / 2 - SIZE.body * 0.8;
              ops.push({ op: 'text', face: 'regular', size: SIZE.body, x: markerX, y: baseline, text: marker, gray: 0 });
            }
            textLine(line, 'regular', SIZE.body, left + LIST_INDENT, bodyLine);
          });
          y -= 2;
        });
        y -= 4;
        break;
      }
      case 'table': {
        layoutTable(block.header, block.rows);
        y -= 8;
        break;
      }
    }
    blockEndPages?.push(pages.length);
  }
  finishPage();
  return pages;

  function layoutTable(header: string[], rows: string[][]): void {
    const columns = Math.max(header.length, ...rows.map((r) => r.length));
    const cellLine = SIZE.table * lead;
    const widths = columnWidths(header, rows, columns);
    const wrapRow = (cells: string[], face: Face): string[][] =>
      widths.map((w, i) => wrapText(cells[i] ?? '', w - 2 * CELL_PAD, (s) => measure(face, s, SIZE.table)));
    const headerLines = wrapRow(header, 'bold');
    const rowHeight = (cells: string[][]): number => Math.max(...cells.map((c) => c.length)) * cellLine + 2 * CELL_PAD;
    const xs = widths.reduce<number[]>((acc, w) => [...acc, (acc.at(-1) ?? left) + w], [left]);
    const right = xs.at(-1) ?? left + width;

    const drawRow = (cells: string[][], face: Face, shaded: boolean): void => {
      const h = rowHeight(cells);
      if (shaded) ops.push({ op: 'rect', x: left, y: y - h, width: right - left, height: h, gray: 0.92 });
      ops.push({ op: 'line', x1: left, y1: y, x2: right, y2: y, thickness: 0.6, gray: 0.35 });
      for (const x of xs) ops.push({ op: 'line', x1: x, y1: y, x2: x, y2: y - h, thickness: 0.6, gray: 0.35 });
      cells.forEach((lines, i) => {
        lines.forEach((line, n) => {
          const baseline = y - CELL_PAD - n * cellLine - (cellLine - SIZE.table) / 2 - SIZE.table * 0.8;
          ops.push({ op: 'text', face, size: SIZE.table, x: (xs[i] ?? left) + CELL_PAD, y: baseline, text: line, gray: 0 });
        });
      });
      y -= h;
      atPageTop = false;
    };
    const closeTable = (): void => {
      ops.push({ op: 'line', x1: left, y1: y, x2: right, y2: y, thickness: 0.6, gray: 0.35 });
    };

    gap(4);
    const bodyRows = rows.map((r) => wrapRow(r, 'regular'));
    ensure(rowHeight(headerLines) + (bodyRows[0] ? rowHeight(bodyRows[0]) : 0));
    drawRow(headerLines, 'bold', true);
    for (const cells of bodyRows) {
      const h = rowHeight(cells);
      if (y - h < bottom) {
        closeTable();
        finishPage();
        startPage();
        drawRow(headerLines, 'bold', true);
      }
      drawRow(cells, 'regular', false);
    }
    closeTable();
  }

  /**
   * Column widths: each column first gets its natural width up to an equal share, then the rest
   * of the line is shared out in proportion to how much each column still wants.
   */
  function columnWidths(header: string[], rows: string[][], columns: number): number[] {
    const natural = Array.from({ length: columns }, (_, i) => {
      const cells = [header[i] ?? '', ...rows.map((r) => r[i] ?? '')];
      const headerWidth = measure('bold', header[i] ?? '', SIZE.table);
      return Math.max(headerWidth, ...cells.map((c) => measure('regular', c, SIZE.table))) + 2 * CELL_PAD;
    });
    const share = width / columns;
    const assigned = natural.map((n) => Math.min(n, share));
    const wanted = natural.map((n, i) => n - (assigned[i] ?? 0));
    const spare = width - assigned.reduce((a, b) => a + b, 0);
    const totalWanted = wanted.reduce((a, b) => a + b, 0);
    return assigned.map((a, i) =>
      totalWanted > 0 ? a + (spare * (wanted[i] ?? 0)) / totalWanted : a + spare / columns,
    );
  }
}
