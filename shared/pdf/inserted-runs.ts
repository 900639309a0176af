/**
 * Runs drawn into the gaps of an earlier run. Word processors that set digits and brackets in a
 * Latin font and words in a Korean one may draw the Korean run first, with gaps left where the
 * Latin characters go ("제1조(목적)" drawn as "제 조 목적" plus "1", "(" and ")" afterwards);
 * pdf.js keeps the Korean run as one text item, its gaps turned into spaces. Ordered by where
 * each item starts, the late items land after the whole run ("제 조 목적1 ( )"). Splitting the
 * run at its spaces, each word at the position it is printed at, lets them fall into place.
 */

/** The part of a placed text item this module reads and writes (see line-builder.ts). */
export interface RunLike {
  text: string;
  along: number;
  end: number;
  fontSize: number;
  angle: number;
  x: number;
  rtl: boolean;
  blank: boolean;
}

// Full-width characters advance about one em; most others about half of one.
const WIDE = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF01-\uFF60]/u;
const NARROW_EM = 0.55;
/** A late item counts as inside a run only this far (em) from its ends: kerned neighbours touch. */
const INSIDE_EM = 0.25;
/** How far (em) an insert may overhang the gap it fills: the gaps' widths are estimates. */
const GAP_TOLERANCE_EM = 0.35;

/** Advance of one character in em, as far as its script tells. */
function emWidth(ch: string): number {
  return WIDE.test(ch) ? 1 : NARROW_EM;
}

/** A word of a run with the gap that follows it, along the line. */
interface Word {
  text: string;
  along: number;
  end: number;
  /** Where the next word starts (the run's end for the last). */
  next: number;
  /** The whitespace printed after it in the run ('' for the last). */
  space: string;
}

/**
 * The words of a horizontal run, each with the span it is estimated to be printed on: CJK
 * characters an em wide, others about half, and the gaps sharing what is left of the run's width.
 */
function wordsOf(run: RunLike): Word[] {
  const chars = [...run.text];
  const spaces = chars.filter((c) => /\s/u.test(c)).length;
  const inked = chars.reduce((n, c) => n + (/\s/u.test(c) ? 0 : emWidth(c)), 0) * run.fontSize;
  const total = run.end - run.along;
  // If the characters leave the gaps nothing, everything is scaled to the run's width.
  const spaceWidth = spaces > 0 && total > inked ? (total - inked) / spaces : 0.25 * run.fontSize;
  const scale = spaces > 0 && total > inked ? 1 : total / Math.max(inked + spaces * spaceWidth, 1e-6);
  const words: Word[] = [];
  let at = run.along;
  for (const ch of chars) {
    const last = words[words.length - 1];
    if (/\s/u.test(ch)) {
      if (last) last.space += ch;
      at += spaceWidth * scale;
      if (last) last.next = at;
      continue;
    }
    if (!last || last.space !== '') words.push({ text: '', along: at, end: at, next: at, space: '' });
    const word = words[words.length - 1] as Word;
    word.text += ch;
    at += emWidth(ch) * run.fontSize * scale;
    word.end = at;
    word.next = at;
  }
  return words;
}

/** Items other than `run` drawn wholly inside its extent, clear of its ends. */
function insertsOf<T extends RunLike>(run: T, items: readonly T[]): T[] {
  const margin = INSIDE_EM * run.fontSize;
  return items.filter((q) => q !== run && !q.blank && q.along > run.along + margin && q.end < run.end - margin);
}

/**
 * The run in words when every item drawn inside it fits one of its gaps (the gaps the run was
 * drawn with); the gap an item fills loses its space, the others keep theirs. Null when an
 * item lies over the run's words instead: an accent or a stamp, not a character of the line.
 */
function splitRun<T extends RunLike>(run: T, inserts: readonly T[]): T[] | null {
  const words = wordsOf(run);
  const tolerance = GAP_TOLERANCE_EM * run.fontSize;
  const filled = new Set<number>();
  for (const q of inserts) {
    const k = words.findIndex((w, i) => i < words.length - 1 && q.along >= w.end - tolerance && q.end <= w.next + tolerance);
    if (k < 0) return null;
    filled.add(k);
  }
  return words.map((w, k) => ({
    ...run,
    text: filled.has(k) ? w.text : w.text + w.space,
    along: w.along,
    end: w.end,
    x: run.x + (w.along - run.along),
    blank: false,
  }));
}

/**
 * The items of one line with every horizontal run that other items are drawn into split into
 * its words, so that they fall into place (see the module comment). Runs nothing is drawn into,
 * runs whose inserts lie over their words, and rotated or right-to-left runs stay as they are.
 */
export function splitAroundInserts<T extends RunLike>(items: readonly T[]): T[] {
  let changed = false;
  const out = items.flatMap((run) => {
    if (run.angle !== 0 || run.rtl || run.blank || !/\S\s+\S/u.test(run.text)) return [run];
    const inserts = insertsOf(run, items);
    const words = inserts.length > 0 ? splitRun(run, inserts) : null;
    if (!words) return [run];
    changed = true;
    return words;
  });
  if (!changed) return [...items];
  // The inserts' own gap fillers (blank items spanning the words they were drawn between) are no
  // spaces any more: the words' own spaces and their positions decide the spacing.
  const inked = out.filter((r) => !r.blank);
  return out.filter((r) => !r.blank || !inked.some((w) => w.end > r.along + INSIDE_EM * w.fontSize && w.along < r.end - INSIDE_EM * w.fontSize));
}
