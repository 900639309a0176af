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
 * Jobs of one child before it is replaced. A child's resident memory stays flat over many small
 * documents (one child, 200 generated PDFs: 111 MB after 25, 109–115 MB from 50 to 200), while a
 * restart costs ~0.3 s of CPU compiled (~0.75 s under tsx) for pdf.js to load again — at 50 jobs a
 * child, 6–15 ms of every small document. A job that leaves the child holding more than half its
 * memory limit replaces it at once whatever the count, so this only bounds slow, steady growth.
 */
export const DEFAULT_MAX_JOBS_PER_CHILD = 500;
