import { describeError } from '../../shared/errors.ts';
import { isRedisUnavailable } from './request-redis.ts';

/** Quarry error codes → HTTP status, in one table (ARCHITECTURE §6). Unlisted codes are 500. */
export const HTTP_STATUS: Readonly<Record<string, number>> = {
  INVALID_PAYLOAD: 400,
  INVALID_METADATA: 400,
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
