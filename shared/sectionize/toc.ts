import type { FlatLine } from './flat-lines.ts';
import { hasLeaders, type HeadingMatch } from './heading-patterns.ts';

/** When a run of lines is a table of contents. */
export interface TocOptions {
  /** Entries with dot leaders that make a run a TOC on their own. @defaultValue 3 */
  minLeaderEntries: number;
  /** Heading-only lines in a row (no body between) that make a TOC. @defaultValue 6 */
  minBareEntries: number;
}

const DEFAULTS: TocOptions = { minLeaderEntries: 3, minBareEntries: 6 };
// How a line of body text ends, and a wrapped TOC entry does not.
const SENTENCE_END = /(?:[.!?。]|다|요)["'”’)]?$/u;
export const TOC_TITLE = /^(?:table of contents|contents|목\s?차|차\s?례|list of (?:figures|tables))$/iu;

// A line that ends like a sentence or a question is no entry of a table of contents.
const ENTRY_SENTENCE = /[.?!。？]["'”’)]?$/u;

/** Share of a run's bare entries that must be headings printed again later for the run to be a TOC. */
const REPEATED_SHARE = 0.5;

/** Words of a heading's title that carry letters, lower-cased: "3.2 AWARENESS AND TRAINING 7" → awareness, and, training. */
function titleWords(title: string): string[] {
  return title.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => /\p{L}/u.test(w));
}

/**
 * A heading's identity for "printed again": its kind, its numbering and the first words of its
 * title. The number alone is not enough: every list restarts at "1.", so a checklist would find
 * its numbers "printed again" in the next list and pass for a table of contents.
 */
function headingKey(m: HeadingMatch, text: string): string {
  if (m.seq.length === 0) return `${m.kind}:${text.replace(/\s+/gu, ' ').trim().toLowerCase()}`;
  return `${m.kind}:${m.seq.join('.')}:${titleWords(m.title).slice(0, 2).join(' ')}`;
}

/**
 * Finds tables of contents: runs of heading-shaped lines with no body between them (the Korean
 * statute lists every 제N조 on its first pages) or of dot-leader entries. One stray line inside
 * a run (a wrapped entry) does not break it. A run without leaders is a TOC only when most of its
 * entries are printed again as headings after it — that is what a TOC is; numbered requirements
 * or checklist items with short or no text of their own are not. Returns the indexes of the
 * TOC's lines, with the "Contents" title right above a run (they become a Contents section,
 * never headings).
 */
export function findTocLines(
  lines: readonly FlatLine[],
  matches: ReadonlyMap<number, HeadingMatch>,
  options: Partial<TocOptions> = {},
): Set<number> {
  const opts = { ...DEFAULTS, ...options };
  const entry = (i: number): 'leader' | 'bare' | null => {
    const line = lines[i];
    if (!line) return null;
    if (hasLeaders(line.text)) return 'leader';
    const m = matches.get(i);
    // FAQ questions with one-line answers alternate like a TOC with strays, but a TOC lists no
    // questions; nor sentences: numbered requirements or checklist items stacked one per line.
    return m && m.rest === '' && m.kind !== 'question' && !m.sentence && !ENTRY_SENTENCE.test(line.text) ? 'bare' : null;
  };
  // A TOC lists headings in order; a number going back (…제116조, then 제1장 again) is where
  // the document itself starts, so that heading is not swallowed by the run. The same number
  // twice is no restart: statutes list an article again for a version with a later date.
  const restarts = (i: number, last: Map<string, number[]>): boolean => {
    const m = matches.get(i);
    if (!m || m.seq.length === 0) return false;
    const prev = last.get(m.kind);
    last.set(m.kind, m.seq);
    if (!prev) return false;
    for (let k = 0; k < Math.max(prev.length, m.seq.length); k++) {
      const a = prev[k] ?? 0;
      const b = m.seq[k] ?? 0;
      if (a !== b) return b < a;
    }
    return false;
  };
  // Where each heading is printed (line indexes, ascending), to tell a TOC from a run of real headings.
  const printedAt = new Map<string, number[]>();
  for (const [k, m] of [...matches].sort((a, b) => a[0] - b[0])) {
    const key = headingKey(m, lines[k]?.text ?? '');
    printedAt.set(key, [...(printedAt.get(key) ?? []), k]);
  }
  const printedAgainAfter = (k: number, end: number): boolean => {
    const m = matches.get(k);
    return m !== undefined && (printedAt.get(headingKey(m, lines[k]?.text ?? '')) ?? []).some((at) => at > end);
  };
  const drop = new Set<number>();
  let i = 0;
  while (i < lines.length) {
    if (!entry(i)) {
      i++;
      continue;
    }
    let end = i;
    let lastLeader = -1;
    let leaders = 0;
    let bare = 0;
    const last = new Map<string, number[]>();
    let j = i;
    while (j < lines.length) {
      const kind = entry(j);
      if (kind && j > i && restarts(j, last)) break;
      if (kind) {
        if (j === i) restarts(j, last);
        if (kind === 'leader') {
          leaders++;
          lastLeader = j;
        } else bare++;
        end = j;
        j++;
      } else if (entry(j + 1) && !SENTENCE_END.test(lines[j]?.text ?? '')) {
        // A stray line inside the run (a wrapped entry); one that ends a sentence is the
        // text of the heading above (a rule's articles with one-line bodies), so no TOC.
        j++;
      } else {
        break;
      }
    }
    // A dot-leader TOC ends at its last leader line: a heading right after it is the text's own.
    if (leaders >= opts.minLeaderEntries) end = lastLeader;
    const bareEntries = [];
    for (let k = i; k <= end; k++) if (entry(k) === 'bare') bareEntries.push(k);
    const repeated = bareEntries.filter((k) => printedAgainAfter(k, end)).length;
    const bareToc = bare + leaders >= opts.minBareEntries && repeated >= REPEATED_SHARE * bareEntries.length;
    if (leaders >= opts.minLeaderEntries || bareToc) {
      for (let k = i; k <= end; k++) drop.add(k);
      for (let k = Math.max(0, i - 2); k < i; k++) if (TOC_TITLE.test(lines[k]?.text ?? '')) drop.add(k);
    }
    i = Math.max(end, j - 1) + 1;
  }
  return drop;
}
