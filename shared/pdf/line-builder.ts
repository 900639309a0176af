import type { TextLine } from '../domain/index.ts';
import { splitAroundInserts } from './inserted-runs.ts';
import { lineCells } from './line-cells.ts';
import { normaliseText } from './text-normalise.ts';

/** The part of a pdf.js TextItem the line builder reads (structural, so tests can fake it). */
export interface RawTextItem {
  str: string;
  transform: readonly number[];
  width: number;
  height: number;
  hasEOL: boolean;
  dir?: string;
}

/** getTextContent() items: text items plus marked-content markers, which carry no text. */
export type RawContentItem = RawTextItem | { type: string };

/** Tuning for line reconstruction, in units of the font size (em). */
export interface LineBuilderOptions {
  /** Baselines closer than this share a line (superscripts stay on their line). @defaultValue 0.5 */
  sameLineEm: number;
  /** A gap wider than this gets a space inserted. @defaultValue 0.2 */
  spaceGapEm: number;
  /**
   * Out-of-order runs join an earlier line only within this horizontal gap; wider means another
   * column (a two-column paper's gutter can be as narrow as 1.4 em). @defaultValue 0.8
   */
  joinGapEm: number;
  /** ... and only when their baselines agree this closely (a re-drawn run shares the baseline). @defaultValue 0.2 */
  joinBaselineEm: number;
}

const DEFAULTS: LineBuilderOptions = { sameLineEm: 0.5, spaceGapEm: 0.2, joinGapEm: 0.8, joinBaselineEm: 0.2 };
// Baselines are bucketed at this pitch (points) so out-of-order runs find their line in O(1).
const BUCKET_PT = 2;

interface Placed {
  text: string;
  /** Position along the writing direction and across it, in the item's own rotated frame. */
  along: number;
  perp: number;
  end: number;
  fontSize: number;
  angle: number;
  x: number;
  y: number;
  rtl: boolean;
  blank: boolean;
}

interface LineAcc {
  angle: number;
  perp: number;
  start: number;
  end: number;
  fontSize: number;
  items: Placed[];
}

function place(item: RawTextItem): Placed | null {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform;
  const vertical = item.dir === 'ttb';
  // Vertical CJK runs advance downwards; everything else along the transform's x axis.
  const theta = vertical ? -Math.PI / 2 : Math.atan2(b, a);
  const fontSize = Math.hypot(c, d) || Math.hypot(a, b) || Math.abs(item.height) || 1;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const along = e * cos + f * sin;
  const perp = -e * sin + f * cos;
  const advance = vertical ? Math.abs(item.height) : Math.abs(item.width);
  if (![along, perp, advance, fontSize].every(Number.isFinite)) return null;
  return {
    text: item.str,
    along,
    perp,
    end: along + advance,
    fontSize,
    angle: Math.round((theta * 180) / Math.PI),
    x: e,
    y: f,
    rtl: item.dir === 'rtl',
    blank: item.str.trim() === '',
  };
}

function bucketKey(angle: number, perp: number): string {
  return `${angle}:${Math.round(perp / BUCKET_PT)}`;
}

function sameBaseline(line: LineAcc, p: Placed, opts: LineBuilderOptions): boolean {
  return line.angle === p.angle && Math.abs(line.perp - p.perp) <= opts.sameLineEm * Math.max(line.fontSize, p.fontSize);
}

/** A bold-simulation overprint: the same text drawn again a hair away. */
function isOverprint(line: LineAcc, p: Placed): boolean {
  const tail = line.items.slice(-4);
  return tail.some((q) => q.text === p.text && Math.abs(q.along - p.along) < 0.2 * p.fontSize);
}

function add(line: LineAcc, p: Placed): void {
  line.items.push(p);
  line.start = Math.min(line.start, p.along);
  line.end = Math.max(line.end, p.end);
  if (!p.blank) line.fontSize = Math.max(line.fontSize, p.fontSize);
}

/** The dominant font size: the one carrying the most characters. */
function dominantFontSize(items: readonly Placed[]): number {
  const weight = new Map<number, number>();
  for (const it of items) {
    if (it.blank) continue;
    const size = Math.round(it.fontSize * 10) / 10;
    weight.set(size, (weight.get(size) ?? 0) + it.text.length);
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, w] of weight) if (w > bestWeight) [best, bestWeight] = [size, w];
  return best;
}

function finish(line: LineAcc, opts: LineBuilderOptions): TextLine | null {
  const rtl = line.items.filter((i) => i.rtl).length * 2 > line.items.length;
  // A run drawn with gaps that later runs fill (digits in another font) is split at its gaps first.
  const items = splitAroundInserts(line.items).sort((p, q) => (rtl ? q.along - p.along : p.along - q.along));
  let text = '';
  let prev: Placed | undefined;
  for (const it of items) {
    if (prev) {
      const gap = rtl ? prev.along - it.end : it.along - prev.end;
      const spaced = /\s$/.test(text) || /^\s/.test(it.text);
      if (!spaced && gap > opts.spaceGapEm * Math.max(prev.fontSize, it.fontSize)) text += ' ';
    }
    text += it.text;
    prev = it;
  }
  const clean = normaliseText(text);
  const first = items.find((i) => !i.blank) ?? items[0];
  if (!clean || !first) return null;
  const cells = lineCells(items, { spaceGapEm: opts.spaceGapEm });
  return {
    text: clean,
    x: round(first.x),
    y: round(first.y),
    fontSize: dominantFontSize(items) || round(first.fontSize),
    width: round(extent(items)),
    ...(cells ? { cells } : {}),
  };
}

/**
 * How far the line's printed text reaches along its writing direction: from the first run's start
 * to the last run's end. Blank runs are left out, as they are for `x` (a leading tab run would
 * otherwise stretch the box over empty paper); extremes rather than the sorted ends, so a long run
 * overlapping a later short one (an overprint, a kerned pair) still counts in full.
 */
function extent(items: readonly Placed[]): number {
  const inked = items.filter((i) => !i.blank);
  let start = Infinity;
  let end = -Infinity;
  // A loop, not Math.min(...): a pathological line of one glyph per run can outgrow the argument limit.
  for (const it of inked.length > 0 ? inked : items) {
    start = Math.min(start, it.along);
    end = Math.max(end, it.end);
  }
  return end > start ? end - start : 0;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Rebuilds visual lines from pdf.js text items. Items are taken in content-stream order, which
 * for nearly every producer is reading order (so two-column pages come out column by column);
 * an item continues the current line when it sits on the same baseline further along. An item
 * out of order (a bold run drawn later) joins an earlier line on its baseline only when it
 * touches that line, so a neighbouring column is never merged in. Rotated runs are grouped in
 * their own rotated frame. Lines are returned in the order they were started.
 */
export function buildLines(items: readonly RawContentItem[], options: Partial<LineBuilderOptions> = {}): TextLine[] {
  const opts = { ...DEFAULTS, ...options };
  const lines: LineAcc[] = [];
  const buckets = new Map<string, LineAcc[]>();
  let current: LineAcc | undefined;
  let breakPending = false;

  const findTouching = (p: Placed): LineAcc | undefined => {
    const reach = opts.joinBaselineEm * p.fontSize * 2;
    const span = Math.ceil(reach / BUCKET_PT);
    const base = Math.round(p.perp / BUCKET_PT);
    let best: LineAcc | undefined;
    let bestGap = Infinity;
    for (let k = base - span; k <= base + span; k++) {
      for (const line of buckets.get(`${p.angle}:${k}`) ?? []) {
        if (Math.abs(line.perp - p.perp) > opts.joinBaselineEm * Math.max(line.fontSize, p.fontSize)) continue;
        const gap = Math.max(p.along - line.end, line.start - p.end, 0);
        if (gap <= opts.joinGapEm * Math.max(line.fontSize, p.fontSize) && gap < bestGap) [best, bestGap] = [line, gap];
      }
    }
    return best;
  };

  for (const raw of items) {
    if (!('str' in raw)) continue;
    if (raw.str === '') {
      if (raw.hasEOL) breakPending = true;
      continue;
    }
    const p = place(raw);
    if (!p) continue;
    const continues =
      current !== undefined && !breakPending && sameBaseline(current, p, opts) && p.along >= current.end - 0.5 * p.fontSize;
    if (current && continues) {
      add(current, p);
    } else {
      const target = findTouching(p);
      if (target) {
        if (!isOverprint(target, p)) add(target, p);
        current = target;
      } else if (!p.blank) {
        const line: LineAcc = { angle: p.angle, perp: p.perp, start: p.along, end: p.end, fontSize: p.fontSize, items: [p] };
        lines.push(line);
        const key = bucketKey(p.angle, p.perp);
        const list = buckets.get(key);
        if (list) list.push(line);
        else buckets.set(key, [line]);
        current = line;
      }
    }
    breakPending = raw.hasEOL;
  }
  const out: TextLine[] = [];
  for (const line of lines) {
    const done = finish(line, opts);
    if (done) out.push(done);
  }
  return out;
}
