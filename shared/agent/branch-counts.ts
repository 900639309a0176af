import type { Filter } from '../store/index.ts';
import { createExpiringLru } from '../lru.ts';

/** How long a positive branch count is reused, across the store's versions. */
export const BRANCH_COUNT_REUSE_MS = 10_000;

interface Counted {
  n: Promise<number>;
  /** The count once it arrived. */
  value?: number;
}

/**
 * The narrowed search's branch counts, as the estimates they are: a branch is chosen by whether
 * its count falls in [branchMin, branchMax], which a count a few seconds old decides as well as a
 * fresh one. While another process ingests, the version searches read moves every search lag, and
 * each new version counted every filter again (~20 ms a count at 10k chunks, up to four a run). A
 * positive count is reused for `maxAgeMs` whatever the version; a zero never is (the documents a
 * question names may be arriving), nor a failed count. Counts of one filter asked at once share
 * one store call.
 *
 * @param count the store's count (on the version searches read).
 * @param opts.maxAgeMs how long a positive count is reused. @defaultValue {@link BRANCH_COUNT_REUSE_MS}
 * @param opts.maxEntries how many filters' counts are kept (least recently used go first). @defaultValue 1024
 * @param opts.now the clock, ms.
 */
export function reusedBranchCounts(
  count: (filter: Filter) => Promise<number>,
  opts: { maxAgeMs?: number; maxEntries?: number; now: () => number },
): (filter: Filter) => Promise<number> {
  const counted = createExpiringLru<string, Counted>(opts.maxEntries ?? 1024, opts.maxAgeMs ?? BRANCH_COUNT_REUSE_MS, opts.now);
  return (filter) => {
    const key = JSON.stringify(filter);
    const known = counted.get(key);
    if (known && known.value !== 0) return known.n;
    const entry: Counted = { n: count(filter) };
    counted.set(key, entry);
    entry.n.then(
      (n) => void (entry.value = n),
      () => counted.get(key) === entry && counted.delete(key),
    );
    return entry.n;
  };
}
