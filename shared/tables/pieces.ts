/**
 * The printed lines a table is read from, and each line's pieces: its cells where extraction kept
 * them apart (TextLine.cells), else the whole line as one piece.
 */
import { isFigure, isYear, splitFigures } from './values.ts';

/** A line as the detector reads it (shared/sectionize's FlatLine has this shape). */
export interface SourceLine {
  /** Index in the document's reading-order lines (what spans and TableRow.line refer to). */
  index: number;
  /** 1-based page. */
  page: number;
  text: string;
  x: number;
  /** Baseline, PDF points from the bottom. */
  y: number;
  fontSize: number;
  width?: number;
  cells?: ReadonlyArray<readonly [number, number, string]>;
}

/** A stretch of one line printed apart from the rest: its text and horizontal extent. */
export interface Piece {
  text: string;
  x: number;
  right: number;
  figure: boolean;
  /**
   * Where a figure's digits end: its right edge less what hangs past them (a closing parenthesis,
   * a percent sign). Right-aligned columns align their digits, so "9 %" and "$ 7,442" in one
   * column end a percent sign apart but share this edge. For words, the right edge.
   */
  edge: number;
}

/** What a line is to a table. */
export type LineKind =
  /** A label and figures, or two or more figures: a row of a table. */
  | 'data'
  /** A single piece of words: a group heading, a wrapped label, a title, a caption or prose. */
  | 'text'
  /** Only bare years ("2023 2022"): a column header. */
  | 'years'
  /** Anything else with several pieces (column headers of words, a spaced heading). */
  | 'other';

/** A line with its pieces and kind. */
export interface ReadLine {
  line: SourceLine;
  pieces: Piece[];
  kind: LineKind;
}

// Helvetica-like text runs about half an em per character: what a line without a width measures.
const CHAR_EM = 0.5;

// Advance widths (em) of a proportional font's common characters: enough to tell how much of a
// figure's width its trailing marks take.
const ADVANCE: Readonly<Record<string, number>> = { ' ': 0.278, '%': 0.889, ')': 0.333, ',': 0.278, '.': 0.278, '(': 0.333, '$': 0.556, '-': 0.333 };

function advance(text: string): number {
  return [...text].reduce((n, c) => n + (ADVANCE[c] ?? 0.556), 0);
}

/** A figure's digit edge (see Piece.edge): the right edge less its trailing marks' share of its width. */
function digitEdge(text: string, x: number, right: number): number {
  const tail = /[\s%)]+$/u.exec(text)?.[0] ?? '';
  if (tail === '') return right;
  const whole = advance(text);
  return whole > 0 ? right - ((right - x) * advance(tail)) / whole : right;
}

/** One cell standing for several figures run together, spread over its width by characters. */
function spread(x: number, right: number, parts: readonly string[]): Piece[] {
  const total = parts.reduce((n, p) => n + p.length, 0) + parts.length - 1;
  const perChar = (right - x) / Math.max(total, 1);
  const out: Piece[] = [];
  let at = x;
  for (const p of parts) {
    const end = at + p.length * perChar;
    out.push({ text: p, x: at, right: end, figure: true, edge: digitEdge(p, at, end) });
    at = end + perChar;
  }
  return out;
}

/** The pieces of a line, left to right; figures run together in one cell are split apart. */
export function piecesOf(line: SourceLine): Piece[] {
  const raw: Array<readonly [number, number, string]> = line.cells && line.cells.length > 0
    ? [...line.cells]
    : [[line.x, line.width ?? line.text.length * CHAR_EM * line.fontSize, line.text]];
  return raw.flatMap(([x, w, text]) => {
    const t = text.trim();
    if (isFigure(t)) return [{ text: t, x, right: x + w, figure: true, edge: digitEdge(t, x, x + w) }];
    const parts = splitFigures(t);
    return parts ? spread(x, x + w, parts) : [{ text: t, x, right: x + w, figure: false, edge: x + w }];
  });
}

/** Reads a line: its pieces and what kind of line it is. */
export function readLine(line: SourceLine): ReadLine {
  const pieces = piecesOf(line);
  const figures = pieces.filter((p) => p.figure).length;
  const first = pieces[0];
  let kind: LineKind = 'other';
  if (pieces.length === 1 && first && !first.figure) kind = 'text';
  // Years as the only figures head columns ("Three Months Ended September 30,  2023  2022"): a
  // row of figures prints thousands with separators, so 2,023 is never read as a year.
  else if (figures >= 1 && pieces.every((p, i) => (p.figure ? isYear(p.text) : i === 0))) kind = 'years';
  else if (first && !first.figure && figures >= 1 && pieces.slice(1).every((p) => p.figure || p.text.length <= 40)) kind = 'data';
  // Figures alone: a row whose label was drawn as a line of its own, or the rest of a row
  // pdf.js handed over in two parts.
  else if (first?.figure && figures === pieces.length) kind = 'data';
  return { line, pieces, kind };
}
