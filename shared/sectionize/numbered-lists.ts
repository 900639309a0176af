/**
 * Numbered lists inside a section — a checklist ("1. Determine whether an incident has
 * occurred", "1.1 Analyze the precursors …", "2. Prioritize …"), a list of questions ("1. Would
 * the organization consider …?", "Q1. Who owns …?") — are shaped like headings line by line, and
 * their items continue the document's numbering plausibly (a checklist's "4." follows chapter
 * 3). What gives them away is that nothing is written under an item: the next item follows at
 * once. An outline's sections have a body; an FAQ's questions have answers. A run of items
 * numbered from 1, each followed directly by the next (or by its own wrapped lines, or now and
 * then by a group label such as "Containment, Eradication, and Recovery"), is a list: its lines
 * are body text of the section that holds it, never headings.
 */
import type { FlatLine, LineStats } from './flat-lines.ts';
import { plausibleSuccessor } from './heading-chains.ts';

/** A list item's number and the scheme it is numbered in. */
interface Item {
  line: number;
  scheme: 'decimal' | 'question';
  seq: number[];
}

const DECIMAL_ITEM = /^(\d{1,2}(?:\.\d{1,2}){0,3})(?:[.)]\s+|\s+)\S/u;
const QUESTION_ITEM = /^Q\s?(\d{1,3})\s?[.:)]\s*\S/u;
// Body under an item: a line that starts like a sentence and ends like one.
const SENTENCE_LINE = /^[^\p{Ll}].*[.!?。]["'”’)]?$/u;
/** A larger font than the body's by this share marks a heading, never a list item. */
const HEADING_FONT = 1.08;

function itemOf(line: FlatLine): Item | null {
  const text = line.text.trim();
  const q = QUESTION_ITEM.exec(text);
  if (q) return { line: line.index, scheme: 'question', seq: [Number(q[1])] };
  const d = DECIMAL_ITEM.exec(text);
  return d ? { line: line.index, scheme: 'decimal', seq: (d[1] ?? '').split('.').map(Number) } : null;
}

/** Whether the lines strictly between two items hold nothing but wrapped text and labels; counts the labels. */
function gapBetween(lines: readonly FlatLine[], from: number, to: number): { body: boolean; labels: number } {
  let labels = 0;
  for (let i = from + 1; i < to; i++) {
    const text = lines[i]?.text.trim() ?? '';
    if (/^\p{Ll}/u.test(text)) continue; // the item's sentence wrapping on
    if (SENTENCE_LINE.test(text)) return { body: true, labels };
    labels++;
  }
  return { body: false, labels };
}

/**
 * The lines of numbered lists (see the module comment): runs of items that start at 1 and go on
 * by plausible steps (1 → 1.1 → 1.2 → 2 → 3), with no body line between two items, at least two
 * items at the list's own level, and fewer group labels than half the items. An item printed in
 * a heading's larger font ends a list.
 */
export function numberedListLines(lines: readonly FlatLine[], stats: LineStats): Set<number> {
  const items: Item[] = [];
  for (const line of lines) {
    const item = itemOf(line);
    if (item) items.push(item);
  }
  const large = (k: number): boolean => stats.bodyFontSize > 0 && (lines[items[k]?.line ?? -1]?.fontSize ?? 0) >= HEADING_FONT * stats.bodyFontSize;
  const out = new Set<number>();
  let k = 0;
  while (k < items.length) {
    const first = items[k] as Item;
    if (first.seq.length !== 1 || first.seq[0] !== 1 || large(k)) {
      k++;
      continue;
    }
    const run = [first];
    let labels = 0;
    let j = k + 1;
    for (; j < items.length; j++) {
      const prev = run[run.length - 1] as Item;
      const next = items[j] as Item;
      if (next.scheme !== first.scheme || !plausibleSuccessor(prev.seq, next.seq) || large(j)) break;
      const gap = gapBetween(lines, prev.line, next.line);
      if (gap.body) break;
      labels += gap.labels;
      run.push(next);
    }
    const topLevel = run.filter((it) => it.seq.length === 1).length;
    if (topLevel >= 2 && labels * 2 < run.length) for (const it of run) out.add(it.line);
    k = Math.max(k + 1, j);
  }
  return out;
}
