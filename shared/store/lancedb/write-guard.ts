import { PermanentError, RetryableError, isQuarryError } from '../../errors.ts';

/** Lance's optimistic-concurrency failures: another writer committed first; trying again works. */
const CONFLICT = /commit conflict|retryable commit|concurrent (write|modification)|conflicting/i;
/**
 * Failures that will recur on retry: the data or the query is wrong, not the disk. Anything else
 * (I/O, lost files during compaction, resource exhaustion) is assumed to be passing.
 */
const REJECTED =
  /invalid (user )?input|invalid argument|schema error|schema mismatch|cannot cast|cast error|not supported|unsupported|parse error|sql parser|no field named|type mismatch|ambiguous|duplicate|arrow error/i;

/** True when `err` is a LanceDB commit conflict that a fresh attempt can resolve. */
export function isCommitConflict(err: unknown): boolean {
  return !isQuarryError(err) && err instanceof Error && CONFLICT.test(err.message);
}

/**
 * Maps a LanceDB error to a Quarry error; Quarry errors pass through untouched.
 * `what` names the operation for the message ("upsertChunks", "hybrid" …).
 */
export function classifyStoreError(err: unknown, what: string): PermanentError | RetryableError {
  if (isQuarryError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (!isCommitConflict(err) && REJECTED.test(message)) {
    return new PermanentError('STORE_REJECTED', `lancedb ${what}: ${message}`, { cause: err });
  }
  return new RetryableError('STORE_UNAVAILABLE', `lancedb ${what}: ${message}`, { cause: err });
}

/** Options of {@link withConflictRetry}. */
export interface ConflictRetryOptions {
  /**
   * Attempts after the first one.
   * @defaultValue 5
   */
  retries?: number;
  /**
   * Base delay in milliseconds; attempt `n` waits a random time in [0, base·2ⁿ] ("full jitter",
   * so writers that collided once do not collide again in lockstep).
   * @defaultValue 20
   */
  baseDelayMs?: number;
}

/**
 * Runs `fn`, retrying commit conflicts with jittered exponential backoff, and classifies the
 * final failure.
 *
 * @throws RetryableError `STORE_UNAVAILABLE` when conflicts outlast the retries or I/O fails.
 * @throws PermanentError `STORE_REJECTED` when LanceDB refuses the data or query.
 */
export async function withConflictRetry<T>(what: string, fn: () => Promise<T>, options: ConflictRetryOptions = {}): Promise<T> {
  const retries = options.retries ?? 5;
  const base = options.baseDelayMs ?? 20;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= retries || !isCommitConflict(err)) throw classifyStoreError(err, what);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * base * 2 ** attempt));
    }
  }
}

/**
 * A promise-chain mutex: calls run one at a time in call order. Writers in one process queue
 * here instead of racing into LanceDB commit conflicts (other processes still may; those are
 * what {@link withConflictRetry} is for).
 */
export function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    // The chain must survive a failed call, or every later writer would inherit its rejection.
    tail = run.catch(() => undefined);
    return run;
  };
}

/** A coalesced run: {@link createCoalescedRun}. */
export interface CoalescedRun<A> {
  /** Resolves once a run that STARTED after this call has finished. */
  request(arg: A): Promise<void>;
  /** Resolves once the runs requested so far have settled, starting a paced run at once (for closing the store). */
  settled(): Promise<void>;
}

/**
 * How often a coalesced run may start: the next run begins no sooner than `max(minIntervalMs,
 * lastDuration / maxShare)` after the last one began, so under a steady stream of requests the
 * run takes at most `maxShare` of the time and each run serves more requests. A request after a
 * quiet spell longer than that starts one at once.
 */
export interface CoalescedRunPacing {
  /** Shortest time between two runs' starts, ms. */
  minIntervalMs: number;
  /** Largest share of wall time the runs may take, in (0, 1]. */
  maxShare: number;
}

/**
 * Checks a pacing before it is used.
 * @throws PermanentError `INVALID_CONFIG` for a negative interval or a share outside (0, 1].
 */
export function validatePacing(pacing: CoalescedRunPacing): void {
  if (!(Number.isFinite(pacing.minIntervalMs) && pacing.minIntervalMs >= 0)) {
    throw new PermanentError('INVALID_CONFIG', `refresh interval must be a non-negative number of ms, got ${pacing.minIntervalMs}`);
  }
  if (!(pacing.maxShare > 0 && pacing.maxShare <= 1)) throw new PermanentError('INVALID_CONFIG', `refresh share must be in (0, 1], got ${pacing.maxShare}`);
}

/** The wait before a run may start under `pacing`, ms; 0 when there was no run before. */
export function pacedWait(pacing: CoalescedRunPacing, last: { startedAt: number; durationMs: number } | null, now: number): number {
  if (!last) return 0;
  return Math.max(0, last.startedAt + Math.max(pacing.minIntervalMs, last.durationMs / pacing.maxShare) - now);
}

/**
 * Coalesces an expensive run whose cost is shared by every request made before it began (the
 * full-text index refresh after writes: Elasticsearch's refresh interval). Each request resolves
 * once a run that STARTED after it has finished; however many wait, at most one run is going and
 * one more is queued. A run still waiting for its pacing or for `schedule` (the write lock) has
 * not begun, so a request joins it rather than queueing another. A queued run starts even when
 * the one before it failed; a request takes the outcome of the run it waits for. Later requests'
 * `arg` is dropped when they join a run (every caller passes the same table).
 */
export function createCoalescedRun<A>(
  schedule: <T>(fn: () => Promise<T>) => Promise<T>,
  run: (arg: A) => Promise<void>,
  pacing: CoalescedRunPacing = { minIntervalMs: 0, maxShare: 1 },
): CoalescedRun<A> {
  validatePacing(pacing);
  let running: Promise<void> | null = null;
  /** True once the run in `running` holds the schedule (it is no longer only queued). */
  let started = false;
  let next: Promise<void> | null = null;
  let last: { startedAt: number; durationMs: number } | null = null;
  /** Ends the pacing wait of the run in `running` early (closing). */
  let wake: (() => void) | null = null;
  let closing = false;
  function paced(): Promise<void> {
    const ms = closing ? 0 : pacedWait(pacing, last, performance.now());
    if (ms === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });
  }
  function request(arg: A): Promise<void> {
    if (running && !started) return running;
    if (!running) {
      started = false;
      running = paced()
        .then(() =>
          schedule(async () => {
            started = true;
            const startedAt = performance.now();
            try {
              await run(arg);
            } finally {
              last = { startedAt, durationMs: performance.now() - startedAt };
            }
          }),
        )
        .finally(() => {
          running = null;
          started = false;
        });
      return running;
    }
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return request(arg);
      });
    return next;
  }
  return {
    request,
    settled: async () => {
      closing = true;
      wake?.();
      await Promise.allSettled([running, next]);
    },
  };
}

/** Options of {@link createGroupCommit}. */
export interface GroupCommitOptions<R> {
  /** A row's key: a later call's row replaces an earlier row with the same key in one batch. */
  keyOf: (row: R) => string;
  /**
   * Rows a batch collects before calls start a new one. A call is never split: one larger than
   * this forms a batch of its own (and `commit` may still write it in several parts).
   */
  maxRows: number;
  /**
   * A batch opened less than this many ms after the previous batch began committing waits out the
   * rest (calls keep joining it) unless it fills to `maxRows` first. An idle store still commits at
   * once; under steady writes it commits at most once per linger, so a run of small documents makes
   * a few larger commits — fewer table versions and files, fewer index refreshes — instead of one
   * each. @defaultValue 0
   */
  lingerMs?: number;
  /** Writes one batch's rows (deduplicated, in call order) as one commit. */
  commit: (rows: R[]) => Promise<void>;
  /** Where a batch's commit runs: the store's write lock, so batches queue behind other writes. */
  schedule: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Runs once per committed batch, outside `schedule`, before its callers resolve (the store asks
   * for an index refresh and moves its searches to the new version): its failure reaches every
   * caller of the batch.
   */
  afterCommit?: () => Promise<void>;
  /**
   * True for an error that one call's rows may have caused (the store refused the data): a batch
   * of several calls failing so is committed again call by call, so each caller gets its own
   * outcome. Other errors (I/O, persistent conflicts) reach every caller of the batch at once.
   */
  isDataError: (err: unknown) => boolean;
}

/** A group committer: {@link createGroupCommit}. */
export interface GroupCommit<R> {
  /** Queues `rows` for the next batch; settles with that batch's commit. */
  submit(rows: readonly R[]): Promise<void>;
  /** Resolves once every batch submitted so far has settled (for closing the store). */
  drain(): Promise<void>;
}

interface PendingCall<R> {
  rows: readonly R[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Batch<R> {
  calls: PendingCall<R>[];
  rowCount: number;
  /** Ends the batch's linger early (it is full). */
  full: () => void;
}

/** How long a batch opened at `now` lingers: what is left of `lingerMs` since the last batch began committing. */
export function lingerWait(lingerMs: number, lastCommitStart: number | null, now: number): number {
  if (lingerMs <= 0 || lastCommitStart === null) return 0;
  return Math.max(0, lastCommitStart + lingerMs - now);
}

/** One row per key, the last call's row winning (merge-insert refuses duplicate source keys). */
export function mergeBatchRows<R>(calls: readonly { rows: readonly R[] }[], keyOf: (row: R) => string): R[] {
  const byKey = new Map<string, R>();
  for (const call of calls) for (const row of call.rows) byKey.set(keyOf(row), row);
  return [...byKey.values()];
}

/** Commits a batch's calls as one; when the store refused a merged batch's data, each call on its own. Returns the calls that failed, with their errors. */
async function commitBatch<R>(batch: Batch<R>, options: GroupCommitOptions<R>): Promise<Map<PendingCall<R>, unknown>> {
  const commitCalls = (calls: readonly PendingCall<R>[]) => options.commit(mergeBatchRows(calls, options.keyOf));
  const failures = new Map<PendingCall<R>, unknown>();
  try {
    await commitCalls(batch.calls);
  } catch (err) {
    if (batch.calls.length === 1 || !options.isDataError(err)) {
      for (const call of batch.calls) failures.set(call, err);
      return failures;
    }
    for (const call of batch.calls) {
      try {
        await commitCalls([call]);
      } catch (own) {
        failures.set(call, own);
      }
    }
  }
  return failures;
}

/** Waits `wait` ms, or less if the batch fills meanwhile. */
async function lingerFor<R>(batch: Batch<R>, wait: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((done) => {
    timer = setTimeout(done, wait);
    batch.full = done;
  });
  clearTimeout(timer);
}

/** Settles every call of a committed batch: its own failure, else afterCommit's, else resolved. */
function settleCalls<R>(batch: Batch<R>, failures: ReadonlyMap<PendingCall<R>, unknown>, afterError: { err: unknown } | null): void {
  for (const call of batch.calls) {
    if (failures.has(call)) call.reject(failures.get(call));
    else if (afterError) call.reject(afterError.err);
    else call.resolve();
  }
}

/**
 * Group commit: calls that arrive while earlier writes hold the write lock are merged into one
 * commit instead of one commit each. A batch is opened by the first call and scheduled at once
 * (an idle store commits it without delay); every call made before the batch gets the lock joins
 * it, up to `maxRows`. Under steady writes a batch first lingers (`lingerMs`) so more calls join
 * it. Each call's promise settles with its batch: resolved once the batch is committed (and
 * `afterCommit` has run), rejected with the batch's error.
 *
 * Crash safety is the caller's: a batch either commits whole or not at all, so a process killed
 * mid-batch loses only uncommitted calls, whose jobs are retried (idempotent for keyed upserts).
 */
export function createGroupCommit<R>(options: GroupCommitOptions<R>): GroupCommit<R> {
  let open: Batch<R> | null = null;
  let lastCommitStart: number | null = null;
  const inFlight = new Set<Promise<void>>();

  async function run(batch: Batch<R>): Promise<void> {
    const wait = lingerWait(options.lingerMs ?? 0, lastCommitStart, Date.now());
    if (wait > 0) await lingerFor(batch, wait);
    const failures = await options.schedule(() => {
      // From here on the batch takes no more calls: later ones open the next batch.
      if (open === batch) open = null;
      lastCommitStart = Date.now();
      return commitBatch(batch, options);
    });
    let afterError: { err: unknown } | null = null;
    if (failures.size < batch.calls.length && options.afterCommit) {
      try {
        await options.afterCommit();
      } catch (err) {
        afterError = { err };
      }
    }
    settleCalls(batch, failures, afterError);
  }

  const submit = (rows: readonly R[]) =>
    new Promise<void>((resolve, reject) => {
      let batch = open;
      if (!batch || (batch.calls.length > 0 && batch.rowCount + rows.length > options.maxRows)) {
        const fresh: Batch<R> = { calls: [], rowCount: 0, full: () => undefined };
        open = batch = fresh;
        // `schedule` queues behind the writes already waiting; the batch fills until its turn.
        const done = run(fresh)
          .catch((err: unknown) => {
            for (const call of fresh.calls) call.reject(err);
          })
          .finally(() => inFlight.delete(done));
        inFlight.add(done);
      }
      batch.calls.push({ rows, resolve, reject });
      batch.rowCount += rows.length;
      if (batch.rowCount >= options.maxRows) batch.full();
    });

  return {
    submit,
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
