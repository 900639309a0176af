/**
 * What the Ask page draws of a cited table and of a cited prose passage: pure, so it is tested
 * without a browser. A table chunk's body is the table as Markdown (for search and an LLM); a
 * reader gets it drawn from its data instead, rows indented by level, figures right-aligned, the
 * cell the answer read its figure from marked.
 */
import type { CitedCell, DocTable, TableCell, TableRow } from './api.ts';

/** Spacing folded, non-breaking spaces (the Markdown's indentation) included, so printed texts compare. */
function fold(s: string): string {
  return s.replace(/[\s\u00a0]+/gu, ' ').trim();
}

/**
 * A row's label with the group headings above it, outermost first, trailing colons dropped:
 * "Net sales > Total net sales". The form the gateway's citations name a cell's row by
 * (shared/tables/facts.ts `labelPath`; the web app is built apart from shared/, so it is restated here).
 */
export function labelPath(row: Pick<TableRow, 'label' | 'parents'>): string {
  return [...row.parents, row.label]
    .map((p) => p.replace(/[:：]\s*$/u, '').trim())
    .filter((p) => p !== '')
    .join(' > ');
}

/** Where a cited cell sits in a table: indices into its rows and columns. */
export interface CellAt {
  row: number;
  column: number;
}

/**
 * The cell a citation names, found by its row's label path, its column's header and its printed
 * text, all three: a part of a split table, or a table the citation was not read from, has no such
 * cell, and then nothing is marked (marking a neighbour would point at the wrong figure). Of
 * several (a label path printed twice), the one on the cited page at the cited box, else the first.
 */
export function findCitedCell(table: Pick<DocTable, 'rows' | 'columns'>, cell: CitedCell): CellAt | null {
  const row = fold(cell.row);
  const text = fold(cell.text);
  const columns = table.columns.flatMap((header, k) => (fold(header) === fold(cell.column) ? [k] : []));
  const found: Array<CellAt & { printed: TableCell }> = [];
  table.rows.forEach((r, i) => {
    if (fold(labelPath(r)) !== row) return;
    for (const k of columns) {
      const printed = r.cells[k];
      if (printed && fold(printed.text) === text) found.push({ row: i, column: k, printed });
    }
  });
  const samePlace = (p: TableCell) => p.page === cell.page && (!cell.box || !p.box || p.box.every((v, j) => Math.abs(v - (cell.box?.[j] ?? v)) < 0.5));
  const best = found.find((f) => samePlace(f.printed)) ?? found[0];
  return best ? { row: best.row, column: best.column } : null;
}

/** A dash, en or em dash printed for "nil": a figure column's cell, though it has no number. */
const NIL = /^[-\u2013\u2014]$/u;

/** One column of the drawn table: its header, and whether it holds figures (then it is right-aligned). */
export interface ColumnView {
  header: string;
  numeric: boolean;
}

/** One cell of the drawn table ('' where nothing was printed). */
export interface CellView {
  text: string;
  numeric: boolean;
  cited: boolean;
}

/** One row of the drawn table. */
export interface RowView {
  /** Its index among the table's rows. */
  index: number;
  label: string;
  /** Indentation depth of its label. */
  level: number;
  /** A group heading ("Net sales:"): a label with no cells. */
  heading: boolean;
  cells: CellView[];
  /** Whether it holds the cited cell. */
  cited: boolean;
}

/** A table as the page draws it. */
export interface TableView {
  title: string;
  columns: ColumnView[];
  rows: RowView[];
  /** The cited cell, when the table holds it. */
  cited: CellAt | null;
}

/**
 * The table as rows and cells to draw: one cell per column (a row short of cells is padded), a
 * column right-aligned when at least half of what is printed in it is a figure or a dash, and the
 * cited cell (see {@link findCitedCell}) marked.
 */
export function tableView(table: DocTable, cell?: CitedCell): TableView {
  const cited = cell ? findCitedCell(table, cell) : null;
  const columns = table.columns.map((header, k): ColumnView => {
    const printed = table.rows.flatMap((r) => {
      const c = r.cells[k];
      return c && fold(c.text) !== '' ? [c] : [];
    });
    const figures = printed.filter((c) => c.value !== null || NIL.test(fold(c.text))).length;
    return { header: fold(header), numeric: printed.length > 0 && figures * 2 >= printed.length };
  });
  const rows = table.rows.map((r, i): RowView => {
    const cells = columns.map((col, k): CellView => ({ text: fold(r.cells[k]?.text ?? ''), numeric: col.numeric, cited: cited?.row === i && cited.column === k }));
    return { index: i, label: fold(r.label), level: r.level, heading: r.cells.every((c) => c === null || fold(c.text) === ''), cells, cited: cited?.row === i };
  });
  return { title: fold(table.title), columns, rows, cited };
}

/**
 * Which rows are shown before "show all": every row of a table of at most `limit`; of a longer
 * one, `limit` consecutive rows around the cited row (from the top when none is cited), so the
 * marked cell is on screen without a long statement pushing the other passages away.
 */
export function shownRows(total: number, citedRow: number | null, limit: number): { from: number; to: number } {
  if (total <= limit) return { from: 0, to: total };
  const centre = citedRow ?? 0;
  const from = Math.max(0, Math.min(centre - Math.floor(limit / 3), total - limit));
  return { from, to: from + limit };
}

/**
 * The caption lines a table chunk's body prints between its title and its pipe table ("(In
 * millions, except per-share amounts)"): not in the table's data, but what its figures mean.
 */
export function tableCaption(body: string, title: string): string[] {
  const lines = body.split('\n');
  const end = lines.findIndex((l) => l.trimStart().startsWith('|'));
  return lines
    .slice(0, end < 0 ? 0 : end)
    .map(fold)
    .filter((l) => l !== '' && l !== fold(title));
}

/** A prose passage as shown under an answer: the quoted characters, with some of the text around them. */
export interface Excerpt {
  before: string;
  quoted: string;
  after: string;
}

/**
 * What of a passage's body is shown: with a quote (`[start, end)`), the quoted characters whole and
 * up to about `max` characters in all, shared around them, cut at words with "…"; without one, the
 * first `max` characters. Spacing is folded, as the page would fold it.
 */
export function passageExcerpt(body: string, quote: { start: number; end: number } | undefined, max = 320): Excerpt {
  if (!quote) {
    const all = fold(body);
    return { before: '', quoted: '', after: all.length > max ? `${cutAfter(all, max)}…` : all };
  }
  const start = Math.max(0, Math.min(quote.start, body.length));
  const end = Math.max(start, Math.min(quote.end, body.length));
  const quoted = fold(body.slice(start, end));
  const room = Math.max(0, max - quoted.length);
  const head = fold(body.slice(0, start));
  const tail = fold(body.slice(end));
  // Half the room each side; a side that needs less leaves the rest to the other.
  const headRoom = Math.min(head.length, Math.max(Math.floor(room / 2), room - tail.length));
  const tailRoom = Math.min(tail.length, room - headRoom);
  const before = head.length <= headRoom ? head : `…${cutBefore(head, headRoom)}`;
  const after = tail.length <= tailRoom ? tail : `${cutAfter(tail, tailRoom)}…`;
  return { before: before === '' ? '' : `${before} `, quoted, after: after === '' ? '' : ` ${after}` };
}

/** The first `n` characters of `s`, ended at a word boundary. */
function cutAfter(s: string, n: number): string {
  if (n <= 0) return '';
  const cut = s.slice(0, n);
  const space = cut.lastIndexOf(' ');
  return (space > n / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/** The last `n` characters of `s`, started at a word boundary. */
function cutBefore(s: string, n: number): string {
  if (n <= 0) return '';
  const cut = s.slice(s.length - n);
  const space = cut.indexOf(' ');
  return (space >= 0 && space < n / 2 ? cut.slice(space + 1) : cut).trimStart();
}
