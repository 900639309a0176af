/**
 * A multi-level number printed twice ("3.12.1 Periodically assess …" as a requirement of the
 * standard, and again as a row of a mapping table in an appendix, or of a summary table before
 * the text) is one heading and one quotation. The numbering chain may take either; left to the
 * weights of single lines it takes whichever looks more like a heading, and a table row in a
 * small font with space around it often does. What tells them apart is the company each keeps:
 * the heading sits in the document's own outline, a long rising sequence with the family and
 * chapter headings between the requirements; a quotation sits in a shorter one (a table rarely
 * repeats every family heading, and never the chapters' sections).
 */
import type { Candidate } from './heading-chains.ts';

/** Lexicographic order of section numbers, missing levels read as 0 (3.1 < 3.1.1 < 3.2). */
function compareSeq(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Per item, the length of the longest strictly rising sequence (by `before`) that ends at it,
 * in document order. Patience sorting: `tails[k]` is the smallest last item of a rising
 * sequence of length k + 1 seen so far, found by binary search.
 */
function risingEndingAt<T>(items: readonly T[], before: (a: T, b: T) => boolean): number[] {
  const tails: T[] = [];
  return items.map((item) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(tails[mid] as T, item)) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = item;
    return lo + 1;
  });
}

/**
 * Drops the copies of repeated multi-level numbers that stand outside the document's outline.
 * For each occurrence, the longest rising sequence of numbers through it is measured (rising up
 * to it, rising on from it); of the occurrences of one number, the one with the longest stays a
 * candidate (the first of equals) and the others go. A stray number out of order costs the
 * outline one step at most. Tables of contents are gone before this (toc.ts). Single-level
 * numbers ("1.", "2.") repeat in every list and are left alone.
 */
export function dropNumberCopies(cands: readonly Candidate[]): Candidate[] {
  const multi = cands.filter((c) => c.seq.length >= 2);
  const up = risingEndingAt(multi, (a, b) => compareSeq(a.seq, b.seq) < 0);
  const down = risingEndingAt([...multi].reverse(), (a, b) => compareSeq(a.seq, b.seq) > 0).reverse();
  const through = multi.map((_, k) => (up[k] ?? 0) + (down[k] ?? 0) - 1);
  const occurrences = new Map<string, number[]>();
  multi.forEach((c, k) => occurrences.set(c.seq.join('.'), [...(occurrences.get(c.seq.join('.')) ?? []), k]));
  const dropped = new Set<Candidate>();
  for (const ks of occurrences.values()) {
    if (ks.length < 2) continue;
    const longest = Math.max(...ks.map((k) => through[k] ?? 0));
    // Equally long (the last family's rows can rise on from its heading in the text just as its
    // requirements do): the first printing, since quotations follow what they quote.
    const kept = ks.find((k) => through[k] === longest);
    for (const k of ks) if (k !== kept) dropped.add(multi[k] as Candidate);
  }
  return dropped.size === 0 ? [...cands] : cands.filter((c) => !dropped.has(c));
}
