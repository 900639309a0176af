import type { LineInventory, ExtractedDocument, TextLine } from '../domain/index.ts';

/** One line of the document in reading order, with what the sectionizer needs to judge it. */
export interface FlatLine {
  /** Its index in the document's reading-order lines: what a section's spans refer to. */
  index: number;
  /** The line's text, NFC-normalised (what chunks and their offsets are made of). */
  text: string;
  x: number;
  y: number;
  fontSize: number;
  /** 1-based page. */
  page: number;
  /** Vertical distance to the previous line of the same page in units of that page's line pitch; Infinity at a page start or after a column jump. */
  gapBefore: number;
  /** The printed width and the runs kept apart at wide gaps, as extracted (see TextLine): what shared/tables reads columns from. */
  width?: number;
  cells?: TextLine['cells'];
  /**
   * Space left after the line before its column's right edge (the furthest any nearby line of the
   * same column reaches), in ems of its font size; absent without a width. A line that stops
   * short of the edge by more than a syllable was not broken inside a word (see body-text.ts).
   */
  room?: number;
}

/** Document-wide typography. */
export interface LineStats {
  /** The font size carrying the most characters: body text. */
  bodyFontSize: number;
  /** Median line length in characters (full lines of body text are about this long). */
  medianLength: number;
  /**
   * Korean text set with its lines broken between words, not inside them: many of its wrapped
   * lines stop a syllable or more short of the edge ({@link wrapsAtWords}). Statutes set with
   * lines broken anywhere fill each line to the edge.
   */
  koreanWrapsAtWords: boolean;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Typical distance between consecutive baselines of a page (its line pitch). */
function pagePitch(lines: ExtractedDocument['pages'][number]['lines']): number {
  const steps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const cur = lines[i];
    if (!prev || !cur) continue;
    const dy = prev.y - cur.y;
    if (dy > 0 && dy < 3 * Math.max(prev.fontSize, cur.fontSize, 1)) steps.push(dy);
  }
  return median(steps);
}

/** Lines either side of a line whose ends mark its column's right edge (see {@link FlatLine.room}). */
const EDGE_WINDOW = 8;
/** How far, in ems, another line's start may be from a line's own to count as the same column. */
const SAME_COLUMN_EM = 4;

/** Each line's {@link FlatLine.room}, from the lines of its page around it. Pure. */
export function roomLeft(lines: readonly Pick<TextLine, 'x' | 'width' | 'fontSize'>[]): (number | undefined)[] {
  return lines.map((line, i) => {
    if (line.width === undefined) return undefined;
    const em = Math.max(line.fontSize, 1);
    let edge = line.x + line.width;
    for (let j = Math.max(0, i - EDGE_WINDOW); j <= Math.min(lines.length - 1, i + EDGE_WINDOW); j++) {
      const other = lines[j];
      if (other?.width === undefined || Math.abs(other.x - line.x) > SAME_COLUMN_EM * em) continue;
      edge = Math.max(edge, other.x + other.width);
    }
    return (edge - line.x - line.width) / em;
  });
}

/** Flattens the pages into one reading-order list of lines. */
export function flattenLines(doc: ExtractedDocument): FlatLine[] {
  const out: FlatLine[] = [];
  for (const page of doc.pages) {
    const pitch = pagePitch(page.lines);
    const room = roomLeft(page.lines);
    page.lines.forEach((line, i) => {
      const prev = i > 0 ? page.lines[i - 1] : undefined;
      const dy = prev ? prev.y - line.y : Infinity;
      const gapBefore = !prev || dy <= 0 || pitch <= 0 ? Infinity : dy / pitch;
      out.push({
        index: out.length,
        text: line.text.normalize('NFC'),
        x: line.x,
        y: line.y,
        fontSize: line.fontSize,
        page: page.number,
        gapBefore,
        ...(line.width !== undefined ? { width: line.width, room: room[i] } : {}),
        ...(line.cells ? { cells: line.cells } : {}),
      });
    });
  }
  return out;
}

/** Body font size and typical line length. */
export function lineStats(lines: readonly FlatLine[]): LineStats {
  const weight = new Map<number, number>();
  for (const l of lines) {
    const size = Math.round(l.fontSize * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + l.text.length);
  }
  let bodyFontSize = 0;
  let best = -1;
  for (const [size, w] of weight) if (w > best) [bodyFontSize, best] = [size, w];
  return { bodyFontSize, medianLength: median(lines.map((l) => l.text.length)), koreanWrapsAtWords: wrapsAtWords(lines) };
}

/** A line stopping this many ems short of its column's edge could have taken another syllable. */
export const SYLLABLE_ROOM_EM = 1.5;
const HANGUL_END = /\p{Script=Hangul}$/u;
const HANGUL_START = /^\p{Script=Hangul}/u;

/**
 * Whether the document's Korean lines are broken between words: of the lines a paragraph's next
 * line continues (Hangul on both sides, the next line at the usual pitch in the same size), at
 * least 15% stop {@link SYLLABLE_ROOM_EM} or more short of the edge (four such lines at least). A
 * setter that breaks anywhere fills every line to the edge: a statute from law.go.kr has 4% (its
 * chapter headings), documents broken between words 20–60%.
 */
export function wrapsAtWords(lines: readonly FlatLine[]): boolean {
  let wraps = 0;
  let short = 0;
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1] as FlatLine;
    const next = lines[i] as FlatLine;
    if (prev.room === undefined || next.page !== prev.page || !(next.gapBefore <= 1.3)) continue;
    if (Math.round(prev.fontSize * 2) !== Math.round(next.fontSize * 2)) continue;
    if (!HANGUL_END.test(prev.text) || !HANGUL_START.test(next.text)) continue;
    wraps++;
    if (prev.room >= SYLLABLE_ROOM_EM) short++;
  }
  return short >= 4 && short >= 0.15 * wraps;
}

/**
 * Every flat line's page and non-space characters (see LineInventory): what coverage is counted
 * against. `lines` are the document's {@link flattenLines}, when the caller has them.
 */
export function lineInventory(doc: ExtractedDocument, lines: readonly FlatLine[] = flattenLines(doc)): LineInventory {
  return { pages: lines.map((l) => l.page), chars: lines.map((l) => l.text.replace(/\s/gu, '').length), runningChars: doc.runningChars ?? 0 };
}
