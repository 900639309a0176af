import type { OutlineEntry } from '../domain/index.ts';
import type { FlatLine } from './flat-lines.ts';
import type { Heading } from './heading.ts';

const STOP = new Set([
  'chapter', 'part', 'section', 'appendix', 'the', 'a', 'an', 'of', 'and',
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty',
]);

/** Comparable form of a title: letters and digits only, lower case, single spaces. */
function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function keyWords(folded: string): string[] {
  return folded.split(' ').filter((w) => w && !STOP.has(w) && !/^\d+$/u.test(w) && !/^(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3}|xiv|xvi{0,3}|xix|xx)$/u.test(w));
}

/**
 * How many lines (1 or 2) a line opening with this outline title spans, or 0 when it does not
 * match. A line may go on after the title ("제1조(목적) 이 법은 …"): statutes print the body
 * on the heading's line.
 */
function matchSpan(folded: (i: number) => string, i: number, t: string, fuzzy: boolean): number {
  const l = folded(i);
  if (!l || !t) return 0;
  // Body may follow a title of two words or more; a one-word title ("Cover") must stand alone.
  if (l === t || (t.includes(' ') && l.startsWith(`${t} `))) return 1;
  const next = folded(i + 1);
  if (t.startsWith(l) && l.length >= 0.4 * t.length && next && `${l} ${next}`.startsWith(t)) return 2;
  if (!fuzzy) return 0;
  // Printed differently from the bookmark ("CHAPTER ONE: Creators" for "Chapter 1: Creators").
  const want = keyWords(t);
  const have = new Set(l.split(' '));
  if (want.length > 0 && want.every((w) => have.has(w)) && have.size <= want.length + 5) return 1;
  return 0;
}

/**
 * Headings from the PDF outline. Entries are matched, in order, to a line on the page they
 * point at (or the next one); an entry that points at a page but matches no line opens a
 * section at the top of that page with the bookmark's title. Entries without a page that match
 * nothing are skipped.
 */
export function outlineHeadings(
  outline: readonly OutlineEntry[],
  lines: readonly FlatLine[],
  dropped: ReadonlySet<number>,
): { headings: Heading[]; matched: number } {
  const firstOfPage = new Map<number, number>();
  const lastOfPage = new Map<number, number>();
  lines.forEach((l, i) => {
    if (!firstOfPage.has(l.page)) firstOfPage.set(l.page, i);
    lastOfPage.set(l.page, i);
  });
  const cache = new Map<number, string>();
  const folded = (i: number): string => {
    let f = cache.get(i);
    if (f === undefined) {
      f = fold(lines[i]?.text ?? '');
      cache.set(i, f);
    }
    return f;
  };
  const headings: Heading[] = [];
  let matched = 0;
  let cursor = 0;
  for (const entry of outline) {
    const t = fold(entry.title);
    const from = entry.page === null ? cursor : Math.max(cursor, firstOfPage.get(entry.page) ?? Infinity);
    const to = entry.page === null ? Math.min(lines.length - 1, cursor + 400) : (lastOfPage.get(entry.page + 1) ?? lastOfPage.get(entry.page) ?? -1);
    let hit = -1;
    let span = 0;
    for (let i = from; i <= to && hit < 0; i++) {
      if (dropped.has(i)) continue;
      // A bookmark without a page (often a web link) must match exactly.
      span = matchSpan(folded, i, t, entry.page !== null);
      if (span > 0) hit = i;
    }
    if (hit >= 0) {
      const text = lines.slice(hit, hit + span).map((l) => l.text).join(' ');
      headings.push({ line: hit, span, title: text, rest: '', rank: entry.level, source: 'outline' });
      matched++;
      cursor = hit + span;
    } else if (entry.page !== null) {
      const at = firstOfPage.get(entry.page);
      if (at !== undefined && at >= cursor) {
        headings.push({ line: at, span: 0, title: entry.title, rest: '', rank: entry.level, source: 'outline' });
        cursor = at;
      }
    }
  }
  return { headings, matched };
}
