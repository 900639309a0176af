import type { Heading } from './heading.ts';

// A decimal section number leading a title: "3.2.2." / "3.2.2" / "A.3.2".
const LEADING_NUMBER = /^((?:\d{1,2}|[A-Z])(?:\.\d{1,3})+|\d{1,2})\.?(?=\s)/u;

/** The decimal number a heading's title starts with, as its parts ("3.2.2." → ["3","2","2"]). */
export function leadingNumber(title: string): string[] | null {
  const m = LEADING_NUMBER.exec(title.trim());
  return m ? (m[1] ?? '').split('.') : null;
}

/**
 * Nests each numbered heading under the nearest earlier heading whose number is a prefix of its
 * own (3.2.2 under 3.2, else under 3), whatever rank its source gave it: a flat outline (every
 * bookmark at level 1) or a heading found by its font puts a deep subsection at the top level
 * otherwise. Only raises ranks, and only for headings whose parent number was seen, so a
 * structure the source got right is left as it is.
 */
export function nestByNumber(headings: readonly Heading[]): Heading[] {
  const sorted = [...headings].sort((a, b) => a.line - b.line || a.span - b.span);
  const rankOf = new Map<string, number>();
  return sorted.map((h) => {
    const parts = leadingNumber(h.title);
    if (!parts) return h;
    let rank = h.rank;
    for (let k = parts.length - 1; k >= 1; k--) {
      const parent = rankOf.get(parts.slice(0, k).join('.'));
      if (parent === undefined) continue;
      if (rank <= parent) rank = parent + 1;
      break;
    }
    rankOf.set(parts.join('.'), rank);
    return rank === h.rank ? h : { ...h, rank };
  });
}
