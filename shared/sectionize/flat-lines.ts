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
}

/** Document-wide typography. */
export interface LineStats {
  /** The font size carrying the most characters: body text. */
  bodyFontSize: number;
  /** Median line length in characters (full lines of body text are about this long). */
  medianLength: number;
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

/** Flattens the pages into one reading-order list of lines. */
export function flattenLines(doc: ExtractedDocument): FlatLine[] {
  const out: FlatLine[] = [];
  for (const page of doc.pages) {
    const pitch = pagePitch(page.lines);
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
        ...(line.width !== undefined ? { width: line.width } : {}),
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
  return { bodyFontSize, medianLength: median(lines.map((l) => l.text.length)) };
}

/** Every flat line's page and non-space characters (see LineInventory): what coverage is counted against. */
export function lineInventory(doc: ExtractedDocument): LineInventory {
  const lines = flattenLines(doc);
  return { pages: lines.map((l) => l.page), chars: lines.map((l) => l.text.replace(/\s/gu, '').length), runningChars: doc.runningChars ?? 0 };
}
