/**
 * Column headers from the lines printed above a table's first row. Header text is often printed
 * over several lines ("Three Months Ended" / "July 1," / "2023"), and pdf.js may hand those
 * fragments over out of order, so the pieces are regrouped by baseline (a band), bands read top
 * to bottom, and each column takes, in each band, the piece nearest above it: a piece spanning
 * several columns ("Three Months Ended" over two dates) heads each of them.
 */
import { isCaption, namesScale } from './caption.ts';
import { gapBetween, type Column } from './columns.ts';
import type { Piece, ReadLine } from './pieces.ts';

/** What the header lines say: one header per column, and caption text printed among them. */
export interface HeaderText {
  columns: string[];
  /** Words printed in the label column of a header line that are no period ("(In millions; Unaudited)"). */
  captions: string[];
}

// Label-column text of a header line that names the period its columns share ("Three Months
// Ended September 30,"): it heads each column of its band, before the column's own text.
const PERIOD = /\b(?:months?|weeks?|years?|quarters?|ended|ending|as\s+of|period)\b|,$/iu;

/** Whether header text names a period, or part of one ("Three Months Ended", "March 31,"). */
export function namesPeriod(text: string): boolean {
  return PERIOD.test(text);
}

// Header text that names a period without its year or length alone ("March 31,", "Three Months
// Ended"), printed once over the columns it applies to.
const SPANNING = /^(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?|(?:three|six|nine|twelve)\s+months\s+ended|(?:fiscal\s+)?(?:quarter|year|years)\s+ended)$/iu;

interface BandPiece {
  piece: Piece;
  y: number;
  em: number;
}

/** Pieces grouped by baseline, top band first; pieces closer than half an em in height share a band. */
function bands(lines: readonly ReadLine[]): BandPiece[][] {
  const all = lines.flatMap((l) => l.pieces.map((piece): BandPiece => ({ piece, y: l.line.y, em: Math.max(l.line.fontSize, 1) })));
  all.sort((a, b) => b.y - a.y || a.piece.x - b.piece.x);
  const out: BandPiece[][] = [];
  for (const p of all) {
    const band = out[out.length - 1];
    const top = band?.[0];
    if (band && top && top.y - p.y <= 0.5 * Math.max(top.em, p.em)) band.push(p);
    else out.push([p]);
  }
  return out.map((b) => b.sort((p, q) => p.piece.x - q.piece.x));
}

/** Whether a piece's centre lies over a column's figures. */
function overColumn(piece: Piece, c: Pick<Column, 'digitLeft' | 'right'>): boolean {
  const centre = (piece.x + piece.right) / 2;
  return centre >= c.digitLeft && centre <= c.right;
}

/**
 * The header of each column from the header lines above a table. `headerLeft` is where header
 * text over the columns starts (pieces ending before it are label-column text: a period phrase
 * heading every column of its band, or a caption); a column takes a band's nearest piece only
 * within `reach`.
 */
export function columnHeaders(lines: readonly ReadLine[], columns: readonly Column[], headerLeft: number, reach: number): HeaderText {
  const parts: string[][] = columns.map(() => []);
  const captions: string[] = [];
  for (const band of bands(lines)) {
    const stub = band.filter((p) => p.piece.right <= headerLeft);
    // A scale centred between columns ("(In millions)" over a pair of dates) is the table's
    // caption; one centred over its own column ("(in thousands)" under "Number of RSUs") is its header's.
    const shared = band.filter((p) => p.piece.right > headerLeft && isCaption(p.piece.text) && namesScale(p.piece.text) && !columns.some((c) => overColumn(p.piece, c)));
    for (const p of shared) captions.push(p.piece.text);
    const over = band.filter((p) => p.piece.right > headerLeft && !shared.includes(p));
    let prefix = '';
    for (const s of stub) {
      const text = s.piece.text;
      if (!isCaption(text) && namesPeriod(text)) prefix = prefix ? `${prefix} ${text}` : text;
      else captions.push(text);
    }
    const used = new Set<BandPiece>();
    columns.forEach((c, k) => {
      let best: BandPiece | undefined;
      let bestGap = Infinity;
      let span: BandPiece | undefined;
      let spanGap = Infinity;
      for (const p of over) {
        const gap = gapBetween(p.piece, { left: c.digitLeft, right: c.right });
        if (gap < bestGap) [best, bestGap] = [p, gap];
        if (SPANNING.test(p.piece.text) && gap < spanGap) [span, spanGap] = [p, gap];
      }
      // A period fragment centred over a group of columns ("March 31," over "2023  2022") heads
      // each of them, however far its centre is from the outer ones, and though a neighbouring
      // column's own header ("Percentage Change") is printed nearer.
      const head = bestGap <= reach ? best : spanGap <= 4 * reach ? span : undefined;
      const own = head ? head.piece.text : '';
      if (head) used.add(head);
      const text = [prefix, own].filter((t) => t !== '').join(' ');
      if (text !== '') parts[k]?.push(text);
    });
    // A header piece no column is near is still printed text of the table: kept with the caption.
    for (const p of over) if (!used.has(p)) captions.push(p.piece.text);
  }
  return { columns: parts.map((p) => p.join(' ')), captions };
}
