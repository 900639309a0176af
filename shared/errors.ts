/**
 * The two kinds of failure every Quarry component speaks, the closed list of their codes, and the
 * one codec a failure travels through as text. Only `workers/runtime` maps errors to BullMQ
 * (permanent → UnrecoverableError, retryable → retry with backoff); the gateway maps codes to HTTP
 * status in one table the compiler checks for every code (`core/failures.ts`). Codes are
 * SCREAMING_SNAKE so they can be grepped, counted and shown to users as they are.
 */

/** Every error code Quarry raises, records or reports (docs/architecture.md §6). */
export const ERROR_CODES = [
  'PASSWORD_REQUIRED',
  'NO_TEXT_LAYER',
  /** The text layer decodes to garbage (mojibake: fonts mapped to the wrong characters). */
  'GARBLED_TEXT',
  'CORRUPT_PDF',
  'TOO_LARGE',
  'NOT_A_PDF',
  'SYMLINK_REFUSED',
  'UNSUPPORTED_FEATURE',
  'EXTRACT_TIMEOUT',
  'INVALID_PAYLOAD',
  'INVALID_RESULT',
  'INVALID_METADATA',
  'ARTIFACT_MISSING',
  'EMBEDDING_QUALITY',
  'DIMENSION_MISMATCH',
  /** The vector store was written by another embedder (model) than this process embeds with. */
  'EMBEDDER_MISMATCH',
  'EMBEDDER_UNAVAILABLE',
  'RERANKER_UNAVAILABLE',
  'LLM_UNAVAILABLE',
  'STORE_UNAVAILABLE',
  'STORE_REJECTED',
  'INVALID_CONFIG',
  /** A job's worker died (OOM, SIGKILL) more often than the stall limit allows. */
  'WORKER_LOST',
  /** Redis did not answer in time (down, restarting, unreachable): try again shortly. */
  'REDIS_UNAVAILABLE',
  /** Redis may evict keys (maxmemory-policy other than noeviction): refused at start. */
  'REDIS_EVICTION_POLICY',
  /** A caller sent more requests than RATE_LIMIT_PER_MIN allows. */
  'RATE_LIMITED',
  /** Work stopped on purpose (shutdown) before it finished: run it again. */
  'CANCELLED',
  /** Anything else: a bug, or an error no Quarry code describes. */
  'INTERNAL',
] as const;

/** One of {@link ERROR_CODES}: a closed union, so every table keyed by it is checked for completeness. */
export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** True for a string that is one of {@link ERROR_CODES}. */
export function isErrorCode(code: string | undefined): code is ErrorCode {
  return code !== undefined && KNOWN_CODES.has(code);
}

abstract class QuarryError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    // The type says so already; this catches a code smuggled past it (plain JavaScript, a cast).
    if (!isErrorCode(code)) throw new TypeError(`unknown error code ${String(code)}: add it to ERROR_CODES`);
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

/** A failure as status records, job failures, run views and HTTP bodies carry it. */
export type Failure = { code: ErrorCode; message: string };

/** Code and message of any thrown value, for status records and logs: anything not a Quarry error is INTERNAL. */
export function describeError(err: unknown): Failure {
  if (isQuarryError(err)) return { code: err.code, message: err.message };
  if (err instanceof Error) return { code: 'INTERNAL', message: err.message };
  return { code: 'INTERNAL', message: String(err) };
}

// ── The job-failure codec ────────────────────────────────────────────────────────────────────
// A failed BullMQ job keeps nothing of its error but a string (`failedReason`), read later by
// processes that never saw the error: the worker's `failed` event (in whichever process picks the
// job up next), the reconciler, the gateway's run view and through it the MCP `ask` tool. The
// runtime encodes every failure it hands to BullMQ with `encodeFailure`; all of them read it back
// with `decodeFailure`. One codec, so they all report the same code.

/** The reason BullMQ's stalled-job checker gives a job it fails after `maxStalledCount` stalls. */
export const STALL_LIMIT_REASON = 'job stalled more than allowable limit';

// The code ends at the first ": " (a code holds neither ':' nor ' '), so any message — colons,
// newlines, an empty one — comes back as it went in.
const CODED = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/;

/** `CODE: message`: the form of every failure the runtime hands to BullMQ. */
export function encodeFailure(failure: Failure): string {
  return `${failure.code}: ${failure.message}`;
}

/**
 * The failure a job's `failedReason` says: what {@link encodeFailure} wrote comes back unchanged;
 * BullMQ's stall limit is `WORKER_LOST`; anything else — an error BullMQ itself raised, a reason
 * with a code this version does not know (written by a newer or older one) — is `INTERNAL` with the
 * whole reason as its message, so nothing it said is lost.
 */
export function decodeFailure(reason: string | null | undefined): Failure {
  const raw = reason ?? '';
  const coded = CODED.exec(raw) ?? CODED.exec(raw.trim());
  if (coded && isErrorCode(coded[1]) && coded[2] !== undefined) return { code: coded[1], message: coded[2] };
  const text = raw.trim();
  if (text.includes(STALL_LIMIT_REASON)) {
    return {
      code: 'WORKER_LOST',
      message: 'the worker running this job was lost (killed, out of memory) more often than the stall limit allows',
    };
  }
  return { code: 'INTERNAL', message: text || 'the job failed without a reason' };
}
