import * as lancedb from '@lancedb/lancedb';
import { PermanentError } from '../../errors.ts';
import { openIfExists } from './open-table.ts';

/**
 * A table (the chunks table, its recent rows) as searches read it. With a lag of 0 it is the
 * store's own handle: every read checks for a newer version first. With a lag of N ms searches
 * read a handle of a second connection pinned to one table version, moved to the latest at most
 * every N ms (Elasticsearch's refresh interval): while another process ingests, a search no
 * longer opens every fresh table version it commits (a merge-insert and the index refresh after
 * it), the search caches, kept per version, live as long as the version does, and a search never
 * sees the table move under it mid-way (which made it run again: LanceDB's own consistency
 * interval reloads a handle in the middle of whatever read finds it due). This process's own
 * commits are seen at once ({@link SearchView.advance}). Searches, facet counts and the agent's
 * branch counts read through the view; counts, reads by id and document reads that writers decide
 * on stay on the fresh handle.
 */
export interface SearchView {
  /**
   * Runs `fn` on the table searches read (null while it does not exist); with a lag, the handle
   * stays at one version until `fn` settles.
   */
  read<T>(fn: (table: lancedb.Table | null) => Promise<T>): Promise<T>;
  /** After a commit of this process: searches that begin from now on see it. */
  advance(): void;
  close(): void;
}

/** A handle pinned to the version it opened, and who still reads it. */
interface Pinned {
  table: lancedb.Table;
  /** now() when its open began: what it holds is at least that recent. */
  openedAt: number;
  /** The view's generation when its open began (see advance). */
  generation: number;
  readers: number;
  /** Replaced by a newer handle (or the view closed): closed once its last reader is done. */
  retired: boolean;
}

/** An open of the latest version under way, shared by the searches that found the handle due. */
interface Opening {
  /** now() when it began. */
  startedAt: number;
  done: Promise<void>;
}

/**
 * Opens the view over `name` in `dir`. `openFresh` is the store's own (interval 0) table opener,
 * used as is when `lagMs` is 0; `now` is the clock the lag is measured on, ms.
 *
 * @throws PermanentError `INVALID_CONFIG` for a negative or non-finite lag.
 */
export function openSearchView(
  dir: string,
  name: string,
  lagMs: number,
  openFresh: () => Promise<lancedb.Table | null>,
  now: () => number = () => performance.now(),
): SearchView {
  if (!Number.isFinite(lagMs) || lagMs < 0) throw new PermanentError('INVALID_CONFIG', `search lag must be a non-negative number of ms, got ${lagMs}`);
  if (lagMs === 0) return { read: async (fn) => fn(await openFresh()), advance: () => undefined, close: () => undefined };
  // Connected on the first search: a process that never searches (a stage worker) opens nothing.
  // No consistency interval: a handle never moves; the view replaces it instead.
  let db: Promise<lancedb.Connection> | null = null;
  let current: Pinned | null = null;
  let opening: Opening | null = null;
  /** Bumped by each commit of this process: a handle opened before it may not hold it. */
  let generation = 0;
  let closed = false;

  const retire = (pinned: Pinned) => {
    pinned.retired = true;
    if (pinned.readers === 0) pinned.table.close();
  };
  const release = (pinned: Pinned) => {
    pinned.readers -= 1;
    if (pinned.retired && pinned.readers === 0) pinned.table.close();
  };

  /**
   * Makes the current handle one of the latest version (none while the table does not exist):
   * the handle itself when no search reads it (it keeps what it has loaded), else a new one.
   */
  async function reopen(startedAt: number): Promise<void> {
    const openedGeneration = generation;
    const idle = current && current.readers === 0 ? current : null;
    // Taken by no search while it moves: each search waits for this open.
    if (idle) idle.openedAt = Number.NEGATIVE_INFINITY;
    if (idle && (await movedToLatest(idle.table))) {
      idle.openedAt = startedAt;
      idle.generation = openedGeneration;
    } else {
      await openLatest(startedAt, openedGeneration);
    }
  }

  /** False when the table can no longer be read (dropped by a reset): it is then opened anew. */
  async function movedToLatest(table: lancedb.Table): Promise<boolean> {
    try {
      await table.checkoutLatest();
      return true;
    } catch {
      return false;
    }
  }

  async function openLatest(openedAt: number, openedGeneration: number): Promise<void> {
    db ??= lancedb.connect(dir);
    const table = await openIfExists(await db, name);
    if (current) retire(current);
    current = null;
    if (!table) return;
    if (closed) return table.close();
    current = { table, openedAt, generation: openedGeneration, readers: 0, retired: false };
  }

  /**
   * The current handle, counted as read, once it is recent enough: opened less than the lag ago
   * or after this call began, and after this process's last commit. Searches that find it due
   * share one open.
   */
  async function acquire(): Promise<Pinned | null> {
    const askedAt = now();
    const askedGeneration = generation;
    for (;;) {
      if (closed) throw new PermanentError('STORE_REJECTED', 'lancedb store is closed');
      const pinned = current;
      if (pinned && pinned.generation >= askedGeneration && (pinned.openedAt >= askedAt || now() - pinned.openedAt < lagMs)) {
        pinned.readers += 1;
        return pinned;
      }
      if (!opening) {
        const startedAt = now();
        // One open at a time: the next can only begin once this one has cleared it.
        opening = {
          startedAt,
          done: reopen(startedAt).finally(() => {
            opening = null;
          }),
        };
      }
      const joined = opening;
      await joined.done;
      // The table does not exist (yet): an open that began after this call says so for certain.
      if (!current && joined.startedAt >= askedAt && !closed) return null;
    }
  }

  return {
    async read(fn) {
      const pinned = await acquire();
      if (!pinned) return fn(null);
      try {
        return await fn(pinned.table);
      } finally {
        release(pinned);
      }
    },
    advance() {
      generation += 1;
    },
    close() {
      closed = true;
      if (current) retire(current);
      current = null;
      void db?.then((connection) => connection.close(), () => undefined);
      db = null;
    },
  };
}
