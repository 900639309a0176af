/**
 * Weaviate client failures → Quarry errors, by the client's error class name and, where there
 * is one, the HTTP status or gRPC status in it. A 4xx other than 408/429 (and gRPC
 * INVALID_ARGUMENT, NOT_FOUND, …) will fail again: permanent. Timeouts, 5xx, 408, 429 and
 * UNAVAILABLE may pass: retryable.
 */
import { PermanentError, RetryableError, isQuarryError } from '../../errors.ts';

const RETRYABLE_NAMES = new Set(['WeaviateRequestTimeoutError', 'WeaviateGRPCUnavailableError', 'WeaviateStartUpError']);
const PERMANENT_NAMES = new Set([
  'WeaviateInvalidInputError',
  'WeaviateSerializationError',
  'WeaviateDeserializationError',
  'WeaviateUnsupportedFeatureError',
  'WeaviateInsufficientPermissionsError',
  'WeaviateUnauthenticatedError',
]);
/** gRPC status names a retry can outlive. */
const GRPC_RETRYABLE = /\b(UNAVAILABLE|DEADLINE_EXCEEDED|RESOURCE_EXHAUSTED|ABORTED|INTERNAL|UNKNOWN|CANCELLED)\b/;
/** gRPC status names that will recur. */
const GRPC_PERMANENT = /\b(INVALID_ARGUMENT|NOT_FOUND|ALREADY_EXISTS|PERMISSION_DENIED|FAILED_PRECONDITION|OUT_OF_RANGE|UNIMPLEMENTED|UNAUTHENTICATED)\b/;
/** Network failures seen below the client (fetch, sockets). */
const NETWORK = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|socket hang up|fetch failed|network|timed? ?out|deadline/i;

/** True for an HTTP status that a retry may outlive. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function statusOf(err: Error): number | null {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' && code >= 100 && code < 600 ? code : null;
}

/**
 * Maps any thrown value to a Quarry error (Quarry errors pass through). `what` names the
 * operation for the message ("upsertChunks", "hybrid" …).
 */
export function classifyWeaviateError(err: unknown, what: string): PermanentError | RetryableError {
  if (isQuarryError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const text = `weaviate ${what}: ${message}`;
  if (!(err instanceof Error)) return new RetryableError('STORE_UNAVAILABLE', text, { cause: err });
  if (RETRYABLE_NAMES.has(err.name)) return new RetryableError('STORE_UNAVAILABLE', text, { cause: err });
  if (PERMANENT_NAMES.has(err.name)) return new PermanentError('STORE_REJECTED', text, { cause: err });
  const status = statusOf(err);
  if (status !== null) {
    return isRetryableStatus(status) ? new RetryableError('STORE_UNAVAILABLE', text, { cause: err }) : new PermanentError('STORE_REJECTED', text, { cause: err });
  }
  if (GRPC_PERMANENT.test(message)) return new PermanentError('STORE_REJECTED', text, { cause: err });
  if (GRPC_RETRYABLE.test(message) || NETWORK.test(message)) return new RetryableError('STORE_UNAVAILABLE', text, { cause: err });
  // A query error without a recognisable status (WeaviateQueryError, WeaviateBatchError, …):
  // the server answered and refused, so the same request will be refused again.
  return new PermanentError('STORE_REJECTED', text, { cause: err });
}

/** One per-object failure of a batch, as the client reports it. */
export interface BatchObjectError {
  message: string;
  code?: number;
}

const OBJECT_RETRYABLE = /timeout|timed out|deadline|unavailable|too many requests|connection|temporar|try again|shutting down|not ready|context canceled/i;
const OBJECT_DIMENSION = /vectors? (with )?lengths?|dimension/i;

/**
 * Turns a batch's per-object errors into one error (null when there are none), so a batch never
 * half succeeds silently: retryable when any failure may pass (the whole batch is re-sent; the
 * writes are idempotent), else permanent.
 */
export function batchError(what: string, total: number, errors: readonly BatchObjectError[]): PermanentError | RetryableError | null {
  if (errors.length === 0) return null;
  const sample = [...new Set(errors.map((e) => e.message))].slice(0, 3).join(' | ');
  const text = `weaviate ${what}: ${errors.length} of ${total} objects failed: ${sample}`;
  if (errors.some((e) => OBJECT_RETRYABLE.test(e.message) || (e.code !== undefined && isRetryableStatus(e.code)))) {
    return new RetryableError('STORE_UNAVAILABLE', text);
  }
  if (errors.some((e) => OBJECT_DIMENSION.test(e.message))) return new PermanentError('DIMENSION_MISMATCH', text);
  return new PermanentError('STORE_REJECTED', text);
}
