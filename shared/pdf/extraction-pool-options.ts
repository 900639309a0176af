import type { DeadlinePolicy } from './extract-deadline.ts';

/** Options of `createExtractionPool` (extraction-pool.ts). */
export interface ExtractionPoolOptions {
  /** Regular children at most (started on demand). @defaultValue 2 */
  size?: number;
  /**
   * Extra children that take queued jobs only while every regular child holds a job older than
   * `slowAfterMs`: slow PDFs cannot hold back the quick ones behind them. @defaultValue DEFAULT_SPARE_SLOTS (1)
   */
  spareSlots?: number;
  /** A job running this long counts as slow (see `spareSlots`). @defaultValue 3000 */
  slowAfterMs?: number;
  /**
   * A queued job waits up to this long for a busy child that has done work before it goes to one
   * that has done none (see child-choice.ts). @defaultValue {@link DEFAULT_SPREAD_AFTER_MS}
   */
  spreadAfterMs?: number;
  /** Wall-clock deadline of one extraction, in ms (EXTRACT_TIMEOUT_MS). */
  timeoutMs: number;
  /**
   * The CPU-time budget of one extraction, scaled to file size and page count (never over
   * `timeoutMs`). Counted in CPU time of the child where /proc gives it, so a busy host does not
   * fail good documents; elsewhere it is a wall-clock deadline.
   */
  deadline?: DeadlinePolicy;
  /** V8 old-generation heap limit of each child, in MB. */
  maxHeapMb: number;
  /**
   * Resident memory limit of each child, in MB (pdf.js's decoded buffers included): over it the
   * child is killed and the job fails with TOO_LARGE. @defaultValue 448
   */
  maxRssMb?: number;
  /** How often children's memory is read while they work, in ms. @defaultValue 25 */
  watchIntervalMs?: number;
  /**
   * A child is replaced after this many jobs, so whatever pdf.js leaks stays bounded.
   * @defaultValue {@link DEFAULT_MAX_JOBS_PER_CHILD}
   */
  maxJobsPerChild?: number;
}

/**
 * Spare children of a pool by default. A stage worker whose jobs all go through one pool takes
 * this many jobs more than the pool's size, so the spare children have work to take.
 */
export const DEFAULT_SPARE_SLOTS = 1;

/**
 * How long a queued job waits for a busy child that has done work before it goes to one that has
 * done none. A small document takes a warmed child 20–60 ms and a 20-page one ~150 ms, so a stream
 * of them stays on one child; a job behind a long one (a book, a bomb) waits a second at most,
 * a fraction of the drop-to-searchable time of a document that waits at all. 200 generated PDFs
 * (590 pages) through one `quarry dev`: at 250 ms a few jobs behind larger documents still spread
 * and the second child warmed up (10.7 ms of children's CPU a page); at 1 s it read nothing
 * (8.2–9.6 ms a page, wall time unchanged); 5 s was no better.
 */
export const DEFAULT_SPREAD_AFTER_MS = 1000;

/**
 * Jobs of one child before it is replaced. A child's resident memory stays flat over many small
 * documents (one child, 200 generated PDFs: 111 MB after 25, 109–115 MB from 50 to 200), while a
 * restart costs ~0.3 s of CPU compiled (~0.75 s under tsx) for pdf.js to load again — at 50 jobs a
 * child, 6–15 ms of every small document. A job that leaves the child holding more than half its
 * memory limit replaces it at once whatever the count, so this only bounds slow, steady growth.
 */
export const DEFAULT_MAX_JOBS_PER_CHILD = 500;
