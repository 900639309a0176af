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
