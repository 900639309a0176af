import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * When the store was last searched, by any process sharing its directory. The index refresh after
 * writes follows it (Elasticsearch's "search idle" shards): a store someone searches keeps its
 * index caught up behind every write, so searches scan few unindexed rows and small files; a store
 * nobody searched for a while — a bulk load — leaves its new rows unindexed (still found, by a
 * scan) until a search, `maintain()` or close, instead of compacting the whole table after every
 * commit (~170 ms of CPU at 2,000 chunks, most of what LanceDB cost a small document).
 */
export interface SearchActivity {
  /** A search ran in this process (recorded at most once a second). */
  mark(): void;
  /** Ms since the last search of any process, or null when the store was never searched. */
  sinceLastSearch(): Promise<number | null>;
}

/** The file whose modification time is the store's last search. */
export const SEARCHED_AT_FILE = '.searched-at';

/** How often a process records its searches, ms: a search every few ms costs one write a second. */
const MARK_EVERY_MS = 1000;

/** True when the store counts as search-idle: never searched, or not within `idleAfterMs`; never when `idleAfterMs` is 0. */
export function isSearchIdle(sinceLastSearchMs: number | null, idleAfterMs: number): boolean {
  if (idleAfterMs <= 0) return false;
  return sinceLastSearchMs === null || sinceLastSearchMs >= idleAfterMs;
}

/**
 * Search activity kept as the modification time of {@link SEARCHED_AT_FILE} in the store's
 * directory. A write that fails (a read-only directory) only loses the record: the store then
 * looks search-idle to other processes, never wrong.
 */
export function fileSearchActivity(dir: string, now: () => number = Date.now): SearchActivity {
  const file = path.join(dir, SEARCHED_AT_FILE);
  let markedAt: number | null = null;
  return {
    mark() {
      const at = now();
      if (markedAt !== null && at - markedAt < MARK_EVERY_MS) return;
      markedAt = at;
      writeFile(file, '').catch(() => undefined);
    },
    async sinceLastSearch() {
      const own = markedAt === null ? null : now() - markedAt;
      try {
        const other = now() - (await stat(file)).mtimeMs;
        return own === null ? Math.max(0, other) : Math.max(0, Math.min(own, other));
      } catch {
        return own;
      }
    },
  };
}
