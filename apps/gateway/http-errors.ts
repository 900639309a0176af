import { describeError } from '../../shared/errors.ts';
import { isRedisUnavailable } from './request-redis.ts';

/** Quarry error codes → HTTP status, in one table (docs/architecture.md §6). Unlisted codes are 500. */
export const HTTP_STATUS: Readonly<Record<string, number>> = {
  INVALID_PAYLOAD: 400,
  INVALID_METADATA: 400,
  NOT_A_PDF: 400,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TOO_LARGE: 413,
  PASSWORD_REQUIRED: 422,
  NO_TEXT_LAYER: 422,
  GARBLED_TEXT: 422,
  CORRUPT_PDF: 422,
  UNSUPPORTED_FEATURE: 422,
  DIMENSION_MISMATCH: 409,
  EMBEDDER_MISMATCH: 409,
  STORE_UNAVAILABLE: 503,
  REDIS_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
  EMBEDDER_UNAVAILABLE: 503,
  CANCELLED: 503,
  EXTRACT_TIMEOUT: 504,
  TIMEOUT: 504,
};

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
  const status = HTTP_STATUS[code] ?? 500;
  // Internal messages may name files or hosts: a 500 says only that it failed.
  return { status, body: { error: { code, message: status === 500 ? 'internal error' : message } } };
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
