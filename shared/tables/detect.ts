/**
 * Finds the tables of a document in its printed lines. A table is a run of consecutive lines
 * whose figures line up in two or more columns (right edges agreeing); above its first row sit
 * its column headers (possibly several lines), a caption giving units and scale, and its title.
 * Pure: lines in, tables out; nothing here knows a company, a statement or a line item.
 */
import type { DocTable } from '../domain/index.ts';
import { looksLikeTitle } from '../sectionize/index.ts';
import { captionFacts, isCaption, namesScale } from './caption.ts';
import { clusterColumns, type Column, type PlacedPiece } from './columns.ts';
import { mergeContinuations } from './continuation.ts';
import { columnHeaders, namesPeriod } from './header.ts';
import { readLine, type ReadLine, type SourceLine } from './pieces.ts';
import { readRows } from './rows.ts';
import type { DetectedTable, TableDraft } from './table-draft.ts';
import { parseFigure } from './values.ts';

export type { DetectedTable } from './table-draft.ts';

/** Tuning of {@link detectTables}, in em of the lines' font size. */
export interface DetectOptions {
  /** Rows further apart vertically than this end a table. @defaultValue 4 */
  maxRowGapEm: number;
  /** Figures whose right edges are this close align in one column. @defaultValue 1 */
  alignEm: number;
  /** Lines without figures a table may hold in a row (group headings, wrapped labels). @defaultValue 3 */
  maxTextRun: number;
}

/** Defaults of {@link DetectOptions}. */
export const DEFAULT_DETECT_OPTIONS: DetectOptions = { maxRowGapEm: 4, alignEm: 1, maxTextRun: 3 };

/** Header lines hold short pieces: longer ones are prose or a title. */
const MAX_HEADER_PIECE = 60;
/** How far above a table (em) its title may be printed. */
const TITLE_REACH_EM = 8;

function em(r: ReadLine): number {
  return Math.max(r.line.fontSize, 1);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The run of lines from `start` (a data line) that may be one table: to its last data line. */
function blockEnd(read: readonly ReadLine[], start: number, opts: DetectOptions, lowest = (read[start] as ReadLine).line.y): number {
  const first = read[start] as ReadLine;
  let last = start;
  // From the lowest line of the first row (its label may wrap below its figures).
  let prevY = lowest;
  let text = 0;
  for (let k = start + 1; k < read.length; k++) {
    const r = read[k] as ReadLine;
    const drop = prevY - r.line.y;
    // Figures printed after their wrapped label, back up at its first line's height, are its row.
    const backUp = drop < -0.6 * em(r) && r.kind === 'data' && text > 0 && read.slice(k - text, k).some((t) => Math.abs(t.line.y - r.line.y) <= 0.6 * em(r));
    if (r.line.page !== first.line.page || (drop < -0.6 * em(r) && !backUp) || drop > opts.maxRowGapEm * em(r)) break;
    // Figures back up beside their label leave the row's lowest line where the next row is measured from.
    if (!backUp) prevY = r.line.y;
    if (r.kind === 'data') {
      last = k;
      text = 0;
    } else if (text < opts.maxTextRun) {
      // Any length or shape: a long label wraps in the label column, a heading may have a
      // footnote mark printed apart ("Level 1  (1):"); where it sits is judged once the columns
      // are known (tableAt).
      text += 1;
    } else {
      break;
    }
  }
  return last;
}

/** Columns of the data lines in `[start, end]`: right edges of their figures, labels left out. */
function columnsOf(read: readonly ReadLine[], start: number, end: number, opts: DetectOptions): Column[] {
  const data = read.slice(start, end + 1).filter((r) => r.kind === 'data');
  const size = median(data.map(em));
  const margin = Math.min(...data.map((r) => r.pieces[0]?.x ?? Infinity));
  const pool: PlacedPiece[] = data.flatMap((r) =>
    // A figure at the left margin is a label ("2024" in a maturity schedule), not a column.
    r.pieces.filter((p, i) => p.figure && !(i === 0 && p.x <= margin + 4 * size)).map((piece) => ({ piece, line: r.line.index })),
  );
  const tolerance = opts.alignEm * size;
  const columns = clusterColumns(pool, tolerance, Math.max(2, Math.ceil(0.2 * data.length)));
  if (columns.length < 2) return columns;
  // A column filled in one row only (a total's last column) stands where no other column does.
  const apart = pool.filter((f) => f.piece.x >= (columns[0] as Column).left && columns.every((c) => Math.abs(f.piece.edge - c.edge) > tolerance && !(f.piece.x < c.right && f.piece.right > c.left)));
  return [...columns, ...clusterColumns(apart, tolerance, 1)].sort((a, b) => a.edge - b.edge);
}

/** Where a table's label column ends, and where header text over its columns may start. */
interface Bounds {
  /** Left edge of the first column's figures: pieces ending before it are in the label column. */
  labelRight: number;
  /**
   * Header pieces start right of this: past the longest label, and no further left of the first
   * column than half its pitch (a header centred over right-aligned figures reaches left of
   * them). A title centred on the page starts further left.
   */
  headerLeft: number;
  columns: readonly Column[];
}

/**
 * Whether a caption printed over the columns is the whole table's ("(In millions, except per
 * share data)" centred over them all) rather than one column's ("(in thousands)" under "Number
 * of RSUs"): it reaches over two columns' figures, or is centred over all of them.
 */
function captionsAll(r: ReadLine, bounds: Bounds): boolean {
  const piece = r.pieces[0];
  const first = bounds.columns[0];
  const last = bounds.columns[bounds.columns.length - 1];
  if (r.pieces.length !== 1 || !piece || !first || !last) return false;
  const over = bounds.columns.filter((c) => piece.x < c.right && piece.right > c.left).length;
  const centre = (first.left + last.right) / 2;
  return over >= 2 || Math.abs((piece.x + piece.right) / 2 - centre) <= 1.5 * em(r);
}

/**
 * A line printed as one run in capitals, of two words or more, without figures or a period's
 * words: a table's title ("SUMMARY RESULTS OF OPERATIONS"), never a column's header, which names
 * a period, a year or one thing ("Three Months Ended", "2023", "AMERICAS").
 */
function isCapitalTitle(r: ReadLine): boolean {
  const text = r.line.text.trim();
  return (
    r.pieces.length === 1 &&
    /\p{Lu}[\p{Lu}'’&,-]*\s+\p{Lu}/u.test(text) &&
    !/\p{Ll}|\p{N}/u.test(text) &&
    !namesPeriod(text) &&
    !isCaption(text)
  );
}

/** Whether every piece of a line sits over the columns (a header line), label-column text aside. */
function overColumns(r: ReadLine, bounds: Bounds): boolean {
  const over = r.pieces.filter((p) => p.right > bounds.headerLeft);
  // At most one piece in the label column: a period or a caption; more is a line of prose.
  return (
    over.length > 0 &&
    // A currency sign alone (drawn on a line of its own) heads nothing.
    r.pieces.some((p) => /[\p{L}\p{N}]/u.test(p.text)) &&
    r.pieces.length - over.length <= 1 &&
    over.every((p) => p.x >= bounds.headerLeft && p.text.length <= MAX_HEADER_PIECE && (!p.figure || /^\p{L}|^(?:19|20)\d{2}$/u.test(p.text) || parseFigure(p.text)?.value === null))
  );
}

/**
 * Whether the line at `k` is centred under the line above it and that line is no header (it
 * starts left of the columns): a caption printed under the table's title, as a title block is
 * set, wherever that puts it over the columns.
 */
function underTitle(read: readonly ReadLine[], k: number, bounds: Bounds): boolean {
  const r = read[k] as ReadLine;
  const above = read[k - 1];
  if (!above || above.line.page !== r.line.page || above.kind === 'data' || overColumns(above, bounds)) return false;
  const centre = (l: ReadLine): number => {
    const first = l.pieces[0];
    const last = l.pieces[l.pieces.length - 1];
    return first && last ? (first.x + last.right) / 2 : l.line.x;
  };
  return Math.abs(centre(r) - centre(above)) <= 1.5 * em(r);
}

interface Zone {
  /** Label-only lines just above the first row: rows (group headings). */
  rows: number[];
  headers: number[];
  captions: number[];
  title: string;
  /** Whether the title is what the page prints above everything else (a running head such as "Item 1"). */
  titleAtPageTop: boolean;
  /** The line just above, when it leads into the table ending in a colon: read for the scale it may state. */
  leadIn: string;
  /** Topmost position the table reaches (its first header or caption line, or its first row). */
  top: number;
}

/** Whether a line, and every line its page prints before it, is a short head (a running head: "PART I", "Item 1"). */
function atPageTop(read: readonly ReadLine[], k: number): boolean {
  const page = (read[k] as ReadLine).line.page;
  for (let j = k; j >= 0 && (read[j] as ReadLine).line.page === page; j--) {
    if ((read[j] as ReadLine).line.text.split(/\s+/u).length > 3) return false;
  }
  return true;
}

/** Whether a line is printed at the height of the header lines found so far (within half an em of their band). */
function inHeaderBand(read: readonly ReadLine[], headers: readonly number[], r: ReadLine): boolean {
  if (headers.length === 0) return false;
  const ys = headers.map((h) => (read[h] as ReadLine).line.y);
  const slack = 0.5 * em(r);
  return r.line.y >= Math.min(...ys) - slack && r.line.y <= Math.max(...ys) + slack;
}

/**
 * Walks up from a table's first row: group headings in the label column, then header lines over
 * the columns (fragments may come in any order, so position is judged by height, not order),
 * caption lines; then the nearest title-like line above, which stays where it is (a heading or
 * prose) and only names the table.
 */
function zoneAbove(read: readonly ReadLine[], start: number, bounds: Bounds, claimed: ReadonlySet<number>): Zone {
  const zone: Zone = { rows: [], headers: [], captions: [], title: '', titleAtPageTop: false, leadIn: '', top: start };
  const first = read[start] as ReadLine;
  let highest = first.line.y;
  let k = start - 1;
  for (; k >= 0; k--) {
    const r = read[k] as ReadLine;
    // Distances in the rows' em: a title set large is not brought nearer by its own size.
    if (claimed.has(k) || r.line.page !== first.line.page || r.line.y <= first.line.y - 0.6 * em(first) || r.line.y - highest > 4 * em(first)) break;
    const inLabel = r.pieces.every((p) => p.right <= bounds.labelRight + 0.5 * em(r));
    const caption = isCaption(r.line.text);
    // A sentence's end is the paragraph above, not a group heading.
    // A group heading sits just above the rows, set no larger than they are (a title is); a
    // sentence's end is the paragraph above.
    const heading = inLabel && r.kind !== 'data' && !caption && !/[.;]$/u.test(r.line.text) && r.line.fontSize <= first.line.fontSize + 1 && r.line.y - highest <= 2.5 * em(first);
    if (zone.headers.length === 0 && zone.captions.length === 0 && heading) zone.rows.push(k);
    // Header before caption: a header line may carry the caption in its label column
    // ("(In Millions; Unaudited)   Sep 30, 2023   Oct 1, 2022"), and "(in thousands)" printed over
    // one column is part of that column's header; a caption proper starts left of the columns,
    // and "(unaudited)" heads no column wherever it is printed.
    else if (r.kind !== 'data' && overColumns(r, bounds) && (!caption || r.pieces.length > 1 || (namesScale(r.line.text) && !captionsAll(r, bounds) && !underTitle(read, k, bounds)))) zone.headers.push(k);
    // The label column's own header, printed in the header's band ("Fair Value / Level" over a
    // column of words read as labels, "(In millions)" beside it), pdf.js giving each fragment a
    // line of its own: part of the header, not a title above it.
    else if (inLabel && r.kind !== 'data' && inHeaderBand(read, zone.headers, r)) zone.headers.push(k);
    else if (caption) zone.captions.push(k);
    else break;
    highest = Math.max(highest, r.line.y);
    zone.top = k;
  }
  // A scale printed over the columns above every header line ("(단위: 백만원)" or "(in millions)"
  // set at the top right) is the table's caption; one inside the header stack ("Number of RSUs /
  // (in thousands)") stays its column's.
  const top = Math.max(-Infinity, ...zone.headers.map((h) => (read[h] as ReadLine).line.y));
  for (const h of [...zone.headers]) {
    const r = read[h] as ReadLine;
    if (r.pieces.length === 1 && isCaption(r.line.text) && namesScale(r.line.text) && r.line.y >= top) {
      zone.headers.splice(zone.headers.indexOf(h), 1);
      zone.captions.push(h);
    }
  }
  // A title set in capitals over the columns, above a header ("SUMMARY RESULTS OF OPERATIONS"
  // centred over "Three Months Ended …"), heads no column: it names the table and stays text, as
  // does what is printed above it (a running head at the top of the page).
  const titleAt = zone.headers.findIndex((h, i) => i > 0 && isCapitalTitle(read[h] as ReadLine));
  if (titleAt > 0) {
    const title = zone.headers[titleAt] as number;
    zone.title = (read[title] as ReadLine).line.text;
    zone.headers = zone.headers.slice(0, titleAt);
    zone.captions = zone.captions.filter((c) => c > title);
    zone.top = Math.min(...zone.headers, ...zone.captions, ...zone.rows, start);
    return zone;
  }
  // The title: the nearest line above that reads like one, not far above. A sentence leading
  // into the table ("… by category (in millions):") may state the scale: it is read, not taken.
  for (let lead = true; k >= 0; k--, lead = false) {
    const r = read[k] as ReadLine;
    if (claimed.has(k) || r.line.page !== first.line.page || r.line.y - highest > TITLE_REACH_EM * em(r)) break;
    if (r.kind === 'data') break;
    if (lead && /[:：]$/u.test(r.line.text)) zone.leadIn = r.line.text;
    if (looksLikeTitle(r.line.text)) {
      zone.title = r.line.text;
      zone.titleAtPageTop = atPageTop(read, k);
      break;
    }
  }
  return zone;
}

/** The table whose rows run from `start` to `end` (data lines), or null when its figures form fewer than two columns. */
function tableAt(read: readonly ReadLine[], start: number, end: number, claimed: ReadonlySet<number>, opts: DetectOptions): TableDraft | null {
  const columns = columnsOf(read, start, end, opts);
  if (columns.length < 2) return null;
  const first = columns[0] as Column;
  const labelRight = first.left;
  // Figures in columns means rows of several figures: a list whose lines each end in one number
  // (a table of contents with staggered page numbers) is no table, however its numbers align.
  const data = read.slice(start, end + 1).filter((r) => r.kind === 'data');
  const multi = data.filter((r) => r.pieces.filter((p) => p.figure && p.right > labelRight).length >= 2).length;
  if (multi < 2 || multi < 0.25 * data.length) return null;
  // A line without figures inside the run must sit in the label column (a group heading); one
  // reaching over the columns is prose or a new header: the table ends before it.
  for (let k = start + 1; k < end; k++) {
    const r = read[k] as ReadLine;
    if (r.kind === 'data' || r.pieces.every((p) => p.right <= labelRight + 0.5 * em(r))) continue;
    let last = k - 1;
    while (last > start && read[last]?.kind !== 'data') last -= 1;
    return last > start ? tableAt(read, start, last, claimed, opts) : null;
  }
  const labels = read.slice(start, end + 1).flatMap((r) => r.pieces.filter((p) => p.right <= labelRight + 0.5 * em(r)).map((p) => p.right + 0.5 * em(r)));
  const pitch = Math.min(...columns.slice(1).map((c, k) => c.edge - (columns[k] as Column).edge));
  const bounds: Bounds = { labelRight, headerLeft: Math.max(...labels, first.left - 0.5 * pitch), columns };
  const zone = zoneAbove(read, start, bounds, claimed);
  const rowPositions = [...zone.rows.reverse(), ...range(start, end)];
  const rowLines = rowPositions.map((k) => read[k] as ReadLine);
  const rows = readRows(rowLines, columns, labelRight);
  const size = median(rowLines.map(em));
  // A header piece beside a column (not over it) heads it only when close: a piece spanning two
  // columns ends a few points short of the second, while a neighbour's header is most of a pitch away.
  const header = columnHeaders(zone.headers.map((k) => read[k] as ReadLine), columns, bounds.headerLeft, Math.max(size, 0.25 * pitch));
  const captionTexts = [...zone.captions.sort((a, b) => a - b).map((k) => (read[k] as ReadLine).line.text), ...header.captions];
  const facts = captionFacts([...captionTexts, zone.title, zone.leadIn]);
  const lines: Array<[number, number, number]> = [
    ...zone.captions.map((k): [number, number, number] => [(read[k] as ReadLine).line.index, (read[k] as ReadLine).line.page, -2]),
    ...zone.headers.map((k): [number, number, number] => [(read[k] as ReadLine).line.index, (read[k] as ReadLine).line.page, -1]),
    ...rows.flatMap((r, i) => r.lines.map((line): [number, number, number] => [line, r.row.page, i])),
  ];
  const pages = lines.map((l) => l[1]);
  return {
    detected: {
      table: {
        title: zone.title,
        columns: header.columns,
        rows: rows.map((r) => r.row),
        unit: facts.unit ?? cellUnit(rows.map((r) => r.row)),
        scale: facts.scale,
        pageStart: Math.min(...pages),
        pageEnd: Math.max(...pages),
      },
      caption: captionTexts,
      lines: lines.sort((a, b) => a[0] - b[0]),
    },
    top: zone.top,
    titleAtPageTop: zone.titleAtPageTop,
    end,
    edges: columns.map((c) => c.edge),
    em: size,
  };
}

/**
 * Where a table's first row starts when its label is wrapped over lines printed before its
 * figures, the figures at the first line's height ("Research and" / "development" / "118 104"):
 * that first label line; otherwise the data line itself.
 */
function wrappedLabelStart(read: readonly ReadLine[], i: number, claimed: ReadonlySet<number>): number {
  const data = read[i] as ReadLine;
  if (!data.pieces[0]?.figure) return i;
  for (let j = i - 1; j >= Math.max(0, i - DEFAULT_DETECT_OPTIONS.maxTextRun); j--) {
    const r = read[j] as ReadLine;
    const below = read[j + 1] as ReadLine;
    if (claimed.has(j) || r.kind !== 'text' || r.line.page !== data.line.page || (j + 1 < i && below.line.y >= r.line.y)) return i;
    if (j + 1 < i && Math.abs(r.line.y - data.line.y) <= 0.6 * em(data)) return j;
  }
  return i;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The unit the cells print: a currency sign if any cell has one, else "%" when every figure is a percentage. */
function cellUnit(rows: DocTable['rows']): string | null {
  const figures = rows.flatMap((r) => r.cells).flatMap((c) => (c ? [parseFigure(c.text)] : [])).filter((f) => f !== null && f.value !== null);
  const currency = figures.find((f) => f?.currency)?.currency;
  if (currency) return currency;
  return figures.length > 0 && figures.every((f) => f?.percent) ? '%' : null;
}

/**
 * The tables printed in `lines` (a document's reading-order lines, shared/sectionize's FlatLine
 * or anything of that shape), in reading order. A table continued on the next page (the same
 * columns; its header repeated or not) comes back as one table spanning both pages.
 */
export function detectTables(lines: readonly SourceLine[], options: Partial<DetectOptions> = {}): DetectedTable[] {
  const opts = { ...DEFAULT_DETECT_OPTIONS, ...options };
  const read = lines.map(readLine);
  const claimed = new Set<number>();
  const drafts: TableDraft[] = [];
  for (let i = 0; i < read.length; i++) {
    if (read[i]?.kind !== 'data' || claimed.has(i)) continue;
    const from = wrappedLabelStart(read, i, claimed);
    const end = blockEnd(read, i, opts, Math.min(...read.slice(from, i + 1).map((r) => r.line.y)));
    const draft = end > i ? tableAt(read, from, end, claimed, opts) : null;
    if (!draft) continue;
    for (let k = draft.top; k <= draft.end; k++) claimed.add(k);
    drafts.push(draft);
    i = draft.end;
  }
  return mergeContinuations(drafts, read).map((d) => d.detected);
}
