import type { HeadingKind, HeadingMatch } from './heading-patterns.ts';

/** A heading-shaped line with its position and the weight it earned in context. */
export interface Candidate extends HeadingMatch {
  line: number;
}

/** Lexicographically greater: Korean articles and chapters only ever go up (제43조 < 제43조의2 < 제44조). */
function increases(prev: readonly number[], next: readonly number[]): boolean {
  for (let i = 0; i < Math.max(prev.length, next.length); i++) {
    const a = prev[i] ?? 0;
    const b = next[i] ?? 0;
    if (a !== b) return b > a;
  }
  return false;
}

/**
 * Whether `next` may follow `prev` in a decimal outline: the same prefix and one level bumped by
 * one or two (a heading lost to the layout may be skipped), with only 1s below it; or one or
 * more levels deeper starting at 1 or 2 (4 → 4.1.1 and 10 → 10.2.1 when the "4.1" and "10.1"
 * lines have no text layer, as in NIST SP 800-63B).
 */
export function plausibleSuccessor(prev: readonly number[], next: readonly number[]): boolean {
  const onesFrom = (k: number): boolean => next.slice(k).every((n) => n === 1);
  const samePrefix = (k: number): boolean => prev.slice(0, k).every((n, idx) => n === next[idx]);
  const first = next[prev.length] ?? 0;
  if (next.length > prev.length && samePrefix(prev.length) && first >= 1 && first <= 2 && onesFrom(prev.length + 1)) return true;
  for (let i = 0; i < Math.min(prev.length, next.length); i++) {
    if (!samePrefix(i)) break;
    const step = (next[i] ?? 0) - (prev[i] ?? 0);
    if (step >= 1 && step <= 2 && onesFrom(i + 1)) return true;
  }
  return false;
}

function follows(kind: HeadingKind, prev: readonly number[], next: readonly number[]): boolean {
  if (kind === 'numbered' || kind === 'letter') return plausibleSuccessor(prev, next);
  if (kind === 'roman') {
    const step = (next[0] ?? 0) - (prev[0] ?? 0);
    return step >= 1 && step <= 2;
  }
  return increases(prev, next);
}

/** How far back a chain looks for its predecessor: keeps the search linear on huge documents. */
const WINDOW = 400;

/**
 * The heaviest chain of candidates whose numbers follow each other plausibly (dynamic
 * programming over document order). Everything off the chain — a list item "3." inside a
 * section, a reference "제51조 및" at a line start, a table cell — is body text. Between equal
 * chains the nearest predecessor wins, or with `preferEarliest` the earliest: a statute prints
 * an article's current text before its future version, which then reads as part of it.
 */
export function bestChain(candidates: readonly Candidate[], preferEarliest = false): Candidate[] {
  const n = candidates.length;
  const score = new Array<number>(n).fill(0);
  const back = new Array<number>(n).fill(-1);
  let bestEnd = -1;
  for (let i = 0; i < n; i++) {
    const c = candidates[i];
    if (!c) continue;
    score[i] = c.weight;
    const from = Math.max(0, i - WINDOW);
    for (let k = 0; k < i - from; k++) {
      const j = preferEarliest ? from + k : i - 1 - k;
      const p = candidates[j];
      const s = score[j] ?? 0;
      if (p && s + c.weight > (score[i] ?? 0) && follows(c.kind, p.seq, c.seq)) {
        score[i] = s + c.weight;
        back[i] = j;
      }
    }
    if (bestEnd < 0 || (score[i] ?? 0) > (score[bestEnd] ?? 0)) bestEnd = i;
  }
  const chain: Candidate[] = [];
  for (let i = bestEnd; i >= 0; i = back[i] ?? -1) {
    const c = candidates[i];
    if (c) chain.push(c);
  }
  return chain.reverse();
}
