/**
 * Failures as every face's clients see them: a Quarry error code with its HTTP status (the gateway)
 * or in a tool error (MCP) or a stream's error event, and internal messages withheld. One mapping,
 * so a failure reads the same whichever face it came through.
 */
import { describeError, RetryableError, type ErrorCode } from '../shared/errors.ts';

/**
 * The HTTP status of every Quarry error code, in one table (docs/architecture.md §6). Keyed by the
 * closed `ErrorCode` union, so the compiler refuses a table that misses a code: a new code gets
 * its status here, and a 500 is a decision written down, never a default. Codes only the gateway
 * speaks (`NOT_FOUND`, `UNAUTHORIZED`, `TIMEOUT`…) travel in an {@link HttpError} with their status.
 */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  // The request or the file it sent is wrong: the client can fix it.
  INVALID_PAYLOAD: 400,
  INVALID_METADATA: 400,
  NOT_A_PDF: 400,
  SYMLINK_REFUSED: 400,
  TOO_LARGE: 413,
  RATE_LIMITED: 429,
  // A PDF Quarry cannot read as it is.
  PASSWORD_REQUIRED: 422,
  NO_TEXT_LAYER: 422,
  GARBLED_TEXT: 422,
  CORRUPT_PDF: 422,
  UNSUPPORTED_FEATURE: 422,
  // The store holds vectors of another embedder or dimension than this process's.
  DIMENSION_MISMATCH: 409,
  EMBEDDER_MISMATCH: 409,
  // The embedding endpoint answered with vectors no search can use (NaN, zero).
  EMBEDDING_QUALITY: 502,
  // A server Quarry needs is down or slow, or the work was stopped: try again.
  STORE_UNAVAILABLE: 503,
  REDIS_UNAVAILABLE: 503,
  EMBEDDER_UNAVAILABLE: 503,
  RERANKER_UNAVAILABLE: 503,
  LLM_UNAVAILABLE: 503,
  CANCELLED: 503,
  WORKER_LOST: 503,
  EXTRACT_TIMEOUT: 504,
  // Quarry's own fault or its server's configuration: 500, message withheld.
  INVALID_RESULT: 500,
  ARTIFACT_MISSING: 500,
  STORE_REJECTED: 500,
  INVALID_CONFIG: 500,
  REDIS_EVICTION_POLICY: 500,
  INTERNAL: 500,
};

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [/stream isn't writeable/i, /command timed out/i, /connection is closed/i, /max retries per request/i, /connect ETIMEDOUT/i];

/**
 * True when `err` says Redis could not be reached or did not answer in time (not a script or data error).
 * Here, not with the gateway's Redis client: every face maps such an error to REDIS_UNAVAILABLE.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (err instanceof RetryableError && err.code === 'REDIS_UNAVAILABLE') return true;
  if (!(err instanceof Error)) return false;
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return UNAVAILABLE_MESSAGES.some((re) => re.test(err.message));
}

/** An error for an HTTP client: a status and a body with code and message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Status and body for anything thrown in a handler. */
export function toHttp(err: unknown): { status: number; body: { error: { code: string; message: string; details?: unknown } } } {
  if (err instanceof HttpError) return { status: err.status, body: { error: { code: err.code, message: err.message, details: err.details } } };
  // ioredis and BullMQ throw plain errors when Redis is down or slow: that is a 503, not a bug.
  if (isRedisUnavailable(err)) return { status: 503, body: { error: { code: 'REDIS_UNAVAILABLE', message: 'Redis is unavailable: try again shortly' } } };
  const { code, message } = describeError(err);
  const status = HTTP_STATUS[code];
  // Internal messages may name files or hosts: a 500 says only that it failed.
  return { status, body: { error: { code, message: status === 500 ? 'internal error' : message } } };
}

/**
 * A failure as a client of any face reads it (an MCP tool error, an SSE error event): its code, and
 * its message unless the failure is internal (then only "internal error"), as {@link toHttp} answers.
 */
export function clientFailure(err: unknown): { code: string; message: string } {
  const { code, message } = toHttp(err).body.error;
  return { code, message };
}

/**
 * What a log line says of the cause of a 500: the error's name, code, message and stack (and its
 * own cause's name and message), or the code and run id of a failure that is no Error (a failed
 * agent run). Never the request: its body may hold a question or a document.
 */
export function failureFields(cause: unknown): Record<string, unknown> {
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    const inner = cause.cause instanceof Error ? { cause: { name: cause.cause.name, message: cause.cause.message } } : {};
    return { error: { name: cause.name, ...(typeof code === 'string' ? { code } : {}), message: cause.message, stack: cause.stack, ...inner } };
  }
  if (typeof cause === 'object' && cause !== null) {
    const { code, runId } = cause as { code?: unknown; runId?: unknown };
    if (typeof code === 'string') return { error: { code, ...(typeof runId === 'string' ? { runId } : {}) } };
  }
  // A 500 no handler explained (a plugin's own error handler answered it).
  return { error: { code: 'UNKNOWN' } };
}
