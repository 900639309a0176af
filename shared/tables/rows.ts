/**
 * A table's rows from its printed lines: the label left of the first column, the figures under
 * the columns, the indentation level of the label and the group headings it sits under.
 */
import type { TableCell, TableRow } from '../domain/index.ts';
import { assignColumns, type Column } from './columns.ts';
import type { Piece, ReadLine } from './pieces.ts';
import { parseFigure } from './values.ts';

/** A row and every printed line it was read from (a label wrapped over two lines has two). */
export interface ReadRow {
  row: TableRow;
  lines: number[];
  /** Where the label starts: what its level is measured by. */
  x: number;
  y: number;
  em: number;
}

// A row totalling the group above it closes that group: what follows at any indentation is no
// longer under the group's heading ("Gross margin" after "Total cost of sales").
const TOTAL = /^(?:total|subtotal|grand\s+total|net\s+total)(?!\p{L})|^(?:합\s*계|소\s*계|총\s*계|계|合計|小計)/iu;

// A heading row that is a date or a period ending on one ("June 30, 2022", "Three Months Ended
// September 30, 2023:", "2023년 12월 31일 현재"): the figures below it, under whatever headings,
// are as of that date until the next such row (a note printing one block a balance-sheet date).
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DATE_HEADING = new RegExp(
  `^(?:(?:as\\s+of|balance\\s+(?:as\\s+)?(?:of|at)|(?:three|six|nine|twelve)\\s+months\\s+ended|(?:fiscal\\s+)?(?:quarter|year)\\s+ended)\\s+)?${MONTH}\\s+\\d{1,2},?\\s+\\d{4}\\s*:?$|^\\d{4}\\s*년\\s*\\d{1,2}\\s*월\\s*\\d{1,2}\\s*일(?:\\s*현재)?\\s*:?$`,
  'iu',
);

/** Splits a line's pieces into its label (left of the columns) and its values. */
function splitLabel(line: ReadLine, labelRight: number, slack: number): { label: Piece[]; values: Piece[] } {
  const label: Piece[] = [];
  let k = 0;
  for (; k < line.pieces.length; k++) {
    const p = line.pieces[k] as Piece;
    // A figure printed at the very left is a label too ("2024" in a maturity schedule).
    if (p.right > labelRight + slack) break;
    label.push(p);
  }
  return { label, values: line.pieces.slice(k) };
}

function cellOf(p: Piece, line: ReadLine): TableCell {
  const round = (n: number): number => Math.round(n * 100) / 100;
  return {
    text: p.text,
    value: parseFigure(p.text)?.value ?? null,
    page: line.line.page,
    box: [round(p.x), round(line.line.y), round(Math.max(0, p.right - p.x)), round(line.line.fontSize)],
  };
}

/** The cells of a line's value pieces, one slot per column; a piece no column takes joins the label. */
function cellsOf(values: readonly Piece[], line: ReadLine, columns: readonly Column[]): { cells: (TableCell | null)[]; stray: string[] } {
  const cells: (TableCell | null)[] = columns.map(() => null);
  const stray: string[] = [];
  assignColumns(values, columns, Infinity).forEach((k, i) => {
    const p = values[i] as Piece;
    if (k >= 0) cells[k] = cellOf(p, line);
    else stray.push(p.text);
  });
  return { cells, stray };
}

/**
 * Whether a label-only line goes on in the label of the next line: not a heading ending in a
 * colon, and either the next label starts in lower case or with a digit ("… as of December" /
 * "31, 2022)"), or a parenthesis is left open.
 */
function wrapsOnto(label: string, next: string): boolean {
  if (next === '' || /:$/u.test(label)) return false;
  const open = (label.match(/\(/gu) ?? []).length > (label.match(/\)/gu) ?? []).length;
  return open || /^[\p{Ll}\d]/u.test(next);
}

/**
 * Rows of a table from its lines in reading order. A label-only line becomes a row of its own (a
 * group heading such as "Net sales:"), unless the next line completes it: figures printed a hair
 * lower without a label (the same row, drawn as two lines), or a label starting in lower case (a
 * label wrapped onto the line of its figures).
 */
export function readRows(lines: readonly ReadLine[], columns: readonly Column[], labelRight: number): ReadRow[] {
  const rows: ReadRow[] = [];
  let pending: ReadRow | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as ReadLine;
    const em = Math.max(line.line.fontSize, 1);
    const { label, values } = splitLabel(line, labelRight, 0.5 * em);
    const { cells, stray } = cellsOf(values, line, columns);
    const text = [...label.map((p) => p.text), ...stray].join(' ');
    const page = line.line.page;
    const over = values.length === 0 ? labelWrappedAbove(lines, i, labelRight) : null;
    if (over) {
      // "Services and" / "software revenue", then its figures at the first line's height.
      if (pending) rows.push(pending);
      pending = null;
      const figures = cellsOf(splitLabel(over.values, labelRight, 0.5 * em).values, over.values, columns).cells;
      const joined = [text, ...over.rest.map((r) => r.line.text.trim())].join(' ');
      const used = [line, ...over.rest, over.values].map((r) => r.line.index);
      rows.push({ row: { label: joined, level: 0, parents: [], cells: figures, line: over.values.line.index, page }, lines: used, x: label[0]?.x ?? line.line.x, y: line.line.y, em });
      i += over.rest.length + 1;
      continue;
    }
    if (values.length === 0) {
      if (pending) rows.push(pending);
      pending = { row: { label: text, level: 0, parents: [], cells, line: line.line.index, page }, lines: [line.line.index], x: label[0]?.x ?? line.line.x, y: line.line.y, em };
      continue;
    }
    const sameRow = pending && text === '' && Math.abs(pending.y - line.line.y) <= 0.6 * em;
    const wrapped = pending && wrapsOnto(pending.row.label, text);
    if (pending && (sameRow || wrapped)) {
      const joined = sameRow ? pending.row.label : `${pending.row.label} ${text}`;
      rows.push({ ...pending, row: { ...pending.row, label: joined, cells, line: line.line.index, page }, lines: [...pending.lines, line.line.index] });
      pending = null;
      continue;
    }
    if (pending) rows.push(pending);
    pending = null;
    // Figures without a label a hair off the previous row's baseline: the rest of that row.
    const prev = rows[rows.length - 1];
    if (prev && text === '' && Math.abs(prev.y - line.line.y) <= 0.6 * em && cells.every((c, k) => c === null || prev.row.cells[k] === null)) {
      prev.row = { ...prev.row, cells: prev.row.cells.map((c, k) => c ?? cells[k] ?? null) };
      prev.lines = [...prev.lines, line.line.index];
      continue;
    }
    rows.push({ row: { label: text, level: 0, parents: [], cells, line: line.line.index, page }, lines: [line.line.index], x: label[0]?.x ?? line.line.x, y: line.line.y, em });
  }
  if (pending) rows.push(pending);
  return withHierarchy(rows);
}

/**
 * A label wrapped over lines whose figures are printed after them, at the first line's height
 * (a table drawn cell by cell: "Services and" / "software revenue" / "231 208 668 597"): the
 * lines that go on with the label at `i`, and the line of its figures. Null otherwise.
 */
function labelWrappedAbove(lines: readonly ReadLine[], i: number, labelRight: number): { rest: ReadLine[]; values: ReadLine } | null {
  const first = lines[i] as ReadLine;
  const em = Math.max(first.line.fontSize, 1);
  const rest: ReadLine[] = [];
  let label = first.line.text.trim();
  for (let j = i + 1; j < lines.length && rest.length < 3; j++) {
    const next = lines[j] as ReadLine;
    const below = next.line.page === first.line.page && next.line.y < (rest.at(-1) ?? first).line.y - 0.4 * em;
    const { label: words, values } = splitLabel(next, labelRight, 0.5 * em);
    const text = words.map((p) => p.text).join(' ');
    if (values.length === 0 && below && wrapsOnto(label, text) && !/^\p{Ll}+\p{Lu}/u.test(text)) {
      rest.push(next);
      label = `${label} ${text}`;
      continue;
    }
    // Figures alone, at the height of the label's first line.
    const onFirst = values.length > 0 && words.length === 0 && next.line.page === first.line.page && Math.abs(next.line.y - first.line.y) <= 0.6 * em;
    return rest.length > 0 && onFirst ? { rest, values: next } : null;
  }
  return null;
}

/** Distinct label indents, left to right, each within half an em of the next: the levels. */
function indentLevels(rows: readonly ReadRow[]): number[] {
  const xs = rows.filter((r) => r.row.label !== '').map((r) => r.x).sort((a, b) => a - b);
  const starts: number[] = [];
  for (const x of xs) {
    const last = starts[starts.length - 1];
    const em = rows[0]?.em ?? 10;
    if (last === undefined || x - last > 0.5 * em) starts.push(x);
  }
  return starts;
}

/**
 * Levels from indentation, and parents: the open group headings (rows without figures) above each
 * row. A heading printed at the indentation of the figure rows right under it ("Revenue" over
 * "Intelligent Cloud  24,259" in a segment table) heads a flat group: it stays open for the rows at
 * its level until a total closes it or another heading at its level or left of it opens. A date
 * heading heads every row up to the next one, the headings under it included.
 */
function withHierarchy(rows: readonly ReadRow[]): ReadRow[] {
  const starts = indentLevels(rows);
  const levelOf = (x: number): number => {
    let level = 0;
    starts.forEach((s, k) => {
      if (x >= s - 0.25 * (rows[0]?.em ?? 10)) level = k;
    });
    return level;
  };
  const levels = rows.map((r) => (r.row.label === '' ? 0 : levelOf(r.x)));
  const hasFigures = (r: ReadRow): boolean => r.row.cells.some((c) => c !== null);
  const open: Array<{ label: string; level: number; flat: boolean }> = [];
  let dated: string | null = null;
  return rows.map((r, i) => {
    const level = levels[i] as number;
    const figures = hasFigures(r);
    if (!figures && DATE_HEADING.test(r.row.label)) {
      open.length = 0;
      dated = r.row.label;
      return { ...r, row: { ...r.row, level, parents: [] } };
    }
    const closes = (o: { level: number; flat: boolean }): boolean => (o.flat ? level < o.level || (!figures && level <= o.level) : o.level >= level);
    while (open.length > 0 && closes(open[open.length - 1] as { level: number; flat: boolean })) open.pop();
    const parents = [...(dated !== null ? [dated] : []), ...open.map((o) => o.label)];
    if (!figures && r.row.label !== '') {
      const next = rows.slice(i + 1).findIndex((n) => n.row.label !== '');
      const nextRow = next >= 0 ? rows[i + 1 + next] : undefined;
      const flat = nextRow !== undefined && hasFigures(nextRow) && levels[i + 1 + next] === level;
      open.push({ label: r.row.label, level, flat });
    } else if (TOTAL.test(r.row.label) && open.length > 0) open.pop();
    return { ...r, row: { ...r.row, level, parents } };
  });
}
