/**
 * The two kinds of failure every Quarry component speaks. Only `workers/runtime` maps them to
 * BullMQ (permanent → UnrecoverableError, retryable → retry with backoff); the gateway maps codes
 * to HTTP status in one table. Codes are SCREAMING_SNAKE so they can be grepped, counted and
 * shown to users as they are.
 */
export type ErrorCode =
  | 'PASSWORD_REQUIRED'
  | 'NO_TEXT_LAYER'
  /** The text layer decodes to garbage (mojibake: fonts mapped to the wrong characters). */
  | 'GARBLED_TEXT'
  | 'CORRUPT_PDF'
  | 'TOO_LARGE'
  | 'NOT_A_PDF'
  | 'SYMLINK_REFUSED'
  | 'UNSUPPORTED_FEATURE'
  | 'EXTRACT_TIMEOUT'
  | 'INVALID_PAYLOAD'
  | 'INVALID_RESULT'
  | 'INVALID_METADATA'
  | 'ARTIFACT_MISSING'
  | 'EMBEDDING_QUALITY'
  | 'DIMENSION_MISMATCH'
  /** The vector store was written by another embedder (model) than this process embeds with. */
  | 'EMBEDDER_MISMATCH'
  | 'EMBEDDER_UNAVAILABLE'
  | 'RERANKER_UNAVAILABLE'
  | 'LLM_UNAVAILABLE'
  | 'STORE_UNAVAILABLE'
  | 'STORE_REJECTED'
  | 'INVALID_CONFIG'
  /** A job's worker died (OOM, SIGKILL) more often than the stall limit allows. */
  | 'WORKER_LOST'
  /** Redis did not answer in time (down, restarting, unreachable): try again shortly. */
  | 'REDIS_UNAVAILABLE'
  /** Redis may evict keys (maxmemory-policy other than noeviction): refused at start. */
  | 'REDIS_EVICTION_POLICY'
  /** A caller sent more requests than RATE_LIMIT_PER_MIN allows. */
  | 'RATE_LIMITED'
  /** Work stopped on purpose (shutdown) before it finished: run it again. */
  | 'CANCELLED'
  | 'INTERNAL';

const CODE = /^[A-Z][A-Z0-9_]*$/;

abstract class QuarryError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    if (!CODE.test(code)) throw new TypeError(`error code must be SCREAMING_SNAKE, got ${code}`);
  }
}

/** A failure that will happen again on retry: bad input, unsupported document, wrong config. */
export class PermanentError extends QuarryError {
  override readonly name = 'PermanentError';
  readonly retryable = false;
}

/** A failure that may pass: a server down, a timeout, a rate limit. */
export class RetryableError extends QuarryError {
  override readonly name = 'RetryableError';
  readonly retryable = true;
}

/** True for either Quarry error kind. */
export function isQuarryError(err: unknown): err is PermanentError | RetryableError {
  return err instanceof PermanentError || err instanceof RetryableError;
}

/** Code and message of any thrown value, for status records and logs. */
export function describeError(err: unknown): { code: string; message: string } {
  if (isQuarryError(err)) return { code: err.code, message: err.message };
  if (err instanceof Error) return { code: 'INTERNAL', message: err.message };
  return { code: 'INTERNAL', message: String(err) };
}
