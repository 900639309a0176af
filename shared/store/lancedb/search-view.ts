import * as lancedb from '@lancedb/lancedb';
import { PermanentError } from '../../errors.ts';

/**
 * The chunks table as searches read it. With a lag of 0 it is the store's own handle: every read
 * checks for a newer version first. With a lag of N ms it is a handle of a second connection that
 * moves to other processes' newer versions at most every N ms (LanceDB's read consistency
 * interval; Elasticsearch's refresh interval): while another process ingests, a search no longer
 * opens every fresh table version it commits (a merge-insert and the index refresh after it), and
 * the search caches, kept per version, live as long as the version does. This process's own
 * commits are seen at once ({@link SearchView.advance}). Only searches read through the view:
 * counts, reads by id and document reads — what writers decide on — stay on the fresh handle.
 */
export interface SearchView {
  /** The table searches read, or null while it does not exist. */
  table(): Promise<lancedb.Table | null>;
  /** After a commit of this process: its searches see it from now on. */
  advance(): Promise<void>;
  close(): void;
}

/**
 * Opens the view over `name` in `dir`. `openFresh` is the store's own (interval 0) table opener,
 * used as is when `lagMs` is 0.
 *
 * @throws PermanentError `INVALID_CONFIG` for a negative or non-finite lag.
 */
export function openSearchView(
  dir: string,
  name: string,
  lagMs: number,
  openFresh: () => Promise<lancedb.Table | null>,
): SearchView {
  if (!Number.isFinite(lagMs) || lagMs < 0) throw new PermanentError('INVALID_CONFIG', `search lag must be a non-negative number of ms, got ${lagMs}`);
  if (lagMs === 0) return { table: openFresh, advance: async () => undefined, close: () => undefined };
  // Connected on the first search: a process that never searches (a stage worker) opens nothing.
  let db: Promise<lancedb.Connection> | null = null;
  let handle: lancedb.Table | null = null;
  return {
    async table() {
      if (handle) return handle;
      db ??= lancedb.connect(dir, { readConsistencyInterval: lagMs / 1000 });
      const connection = await db;
      // Absence is not cached: another process may create the table.
      if (!(await connection.tableNames()).includes(name)) return null;
      const opened = await connection.openTable(name);
      // Searches that arrive together before the first open both get here: one handle is kept.
      if (handle) opened.close();
      else handle = opened;
      return handle;
    },
    async advance() {
      await handle?.checkoutLatest();
    },
    close() {
      handle?.close();
      handle = null;
      void db?.then((connection) => connection.close(), () => undefined);
      db = null;
    },
  };
}
