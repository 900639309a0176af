/**
 * A table's columns, from where its figures end: figures are right-aligned, so the right edges of
 * one column's figures agree within a fraction of an em (a closing parenthesis hangs a little
 * past them), while neighbouring columns end a gutter apart.
 */
import type { Piece } from './pieces.ts';

/** One column: the horizontal extent of its figures and where they end. */
export interface Column {
  left: number;
  /** Where its figures' digits start: a currency sign set apart at the column's left is left out (what a header is judged against). */
  digitLeft: number;
  right: number;
  /** Median right edge of its figures: where the column's figures align. */
  edge: number;
}

/** A figure piece and the line it was printed on (for counting each line once). */
export interface PlacedPiece {
  piece: Piece;
  line: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Clusters figures by right edge: sorted edges closer than `tolerance` chain into one column. A
 * column must hold figures of at least `minLines` distinct lines, so a stray figure is no column.
 * Columns come back left to right.
 */
export function clusterColumns(figures: readonly PlacedPiece[], tolerance: number, minLines: number): Column[] {
  const sorted = [...figures].sort((a, b) => a.piece.edge - b.piece.edge);
  const groups: PlacedPiece[][] = [];
  let last = -Infinity;
  for (const f of sorted) {
    const current = groups[groups.length - 1];
    if (current && f.piece.edge - last <= tolerance) current.push(f);
    else groups.push([f]);
    last = f.piece.edge;
  }
  return mergeDisjoint(groups)
    .filter((g) => new Set(g.map((f) => f.line)).size >= minLines)
    .map((g) => ({
      left: Math.min(...g.map((f) => f.piece.x)),
      digitLeft: Math.min(...g.map((f) => (/^[\d(.\-−–—]/u.test(f.piece.text) ? f.piece.x : Infinity)), ...(g.every((f) => !/^[\d(.\-−–—]/u.test(f.piece.text)) ? g.map((f) => f.piece.x) : [])),
      right: Math.max(...g.map((f) => f.piece.right)),
      edge: median(g.map((f) => f.piece.edge)),
    }))
    .sort((a, b) => a.edge - b.edge);
}

/**
 * Joins neighbouring groups that are one column aligned two ways: percentages whose digits end
 * short of the amounts above them ("35.4 %" under "$ 21,448"). Such groups never share a line and
 * overlap on the page; two real columns share lines, or stand a gutter apart.
 */
function mergeDisjoint(groups: readonly PlacedPiece[][]): PlacedPiece[][] {
  const out: PlacedPiece[][] = [];
  for (const g of groups) {
    const prev = out[out.length - 1];
    if (prev && !sharesLine(prev, g) && overlaps(prev, g)) out[out.length - 1] = [...prev, ...g];
    else out.push([...g]);
  }
  return out;
}

function sharesLine(a: readonly PlacedPiece[], b: readonly PlacedPiece[]): boolean {
  const lines = new Set(a.map((f) => f.line));
  return b.some((f) => lines.has(f.line));
}

function overlaps(a: readonly PlacedPiece[], b: readonly PlacedPiece[]): boolean {
  const left = (g: readonly PlacedPiece[]): number => Math.min(...g.map((f) => f.piece.x));
  const right = (g: readonly PlacedPiece[]): number => Math.max(...g.map((f) => f.piece.right));
  return Math.min(right(a), right(b)) > Math.max(left(a), left(b));
}

/** Horizontal distance between two extents (0 when they overlap). */
export function gapBetween(a: { x: number; right: number }, b: { left: number; right: number }): number {
  return Math.max(0, b.left - a.right, a.x - b.right);
}

/**
 * Assigns a row's value pieces to columns: each to the column whose figures end nearest its own
 * right edge (a word cell, to the column it overlaps most, else the nearest). Two pieces claiming
 * one column: the later moves to the next free column on its side. Returns one entry per piece
 * (its column index), or -1 for a piece no column is near (more than `reach` away).
 */
export function assignColumns(pieces: readonly Piece[], columns: readonly Column[], reach: number): number[] {
  const taken = new Set<number>();
  return pieces.map((p) => {
    let best = -1;
    let bestDistance = Infinity;
    columns.forEach((c, k) => {
      const d = p.figure ? Math.abs(p.edge - c.edge) : gapBetween(p, c) - overlap(p, c) * 1e-3;
      if (d < bestDistance) [best, bestDistance] = [k, d];
    });
    if (best < 0 || bestDistance > reach) return -1;
    if (!taken.has(best)) {
      taken.add(best);
      return best;
    }
    const step = p.edge > (columns[best] as Column).edge ? 1 : -1;
    for (let k = best + step; k >= 0 && k < columns.length; k += step) {
      if (!taken.has(k)) {
        taken.add(k);
        return k;
      }
    }
    return -1;
  });
}

function overlap(p: { x: number; right: number }, c: Column): number {
  return Math.max(0, Math.min(p.right, c.right) - Math.max(p.x, c.left));
}
