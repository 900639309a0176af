import { PermanentError, RetryableError, isQuarryError, type ErrorCode } from '../errors.ts';
import type { ExtractedDocument } from '../domain/index.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';

/** What an extraction child receives (bytes arrive as a structured-clone copy over IPC). */
export interface WorkerRequest extends ExtractInput {
  limits: ExtractLimits;
}

/** A Quarry error flattened for postMessage (class identity does not survive structured clone). */
export interface SerialisedError {
  code: string;
  message: string;
  retryable: boolean;
}

/** What the worker answers to one request. */
export type WorkerReply = { ok: true; doc: ExtractedDocument } | { ok: false; error: SerialisedError };

/**
 * Messages of a pooled extraction child: `ready` once its modules are loaded; per job, `opened`
 * with the page count (the parent sizes the job's deadline from it), then one `reply`.
 */
export type ChildMessage = { type: 'ready' } | { type: 'opened'; id: number; pageCount: number } | { type: 'reply'; id: number; reply: WorkerReply };

/** A job sent to a pooled child. */
export interface ChildJob {
  id: number;
  request: WorkerRequest;
}

/** Flattens any thrown value; anything that is not a Quarry error becomes INTERNAL. */
export function serialiseError(err: unknown): SerialisedError {
  if (isQuarryError(err)) return { code: err.code, message: err.message, retryable: err.retryable };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: `extraction failed unexpectedly: ${message}`, retryable: false };
}

// The codes the extraction can raise; anything else from across the thread is reported as INTERNAL.
const KNOWN_CODES: readonly ErrorCode[] = [
  'PASSWORD_REQUIRED',
  'NO_TEXT_LAYER',
  'GARBLED_TEXT',
  'CORRUPT_PDF',
  'TOO_LARGE',
  'UNSUPPORTED_FEATURE',
  'EXTRACT_TIMEOUT',
  'INTERNAL',
];

function asCode(code: string): ErrorCode {
  return KNOWN_CODES.find((c) => c === code) ?? 'INTERNAL';
}

/** Rebuilds the Quarry error a worker reported, with the same code, message and kind. */
export function deserialiseError(error: SerialisedError): PermanentError | RetryableError {
  const code = asCode(error.code);
  return error.retryable ? new RetryableError(code, error.message) : new PermanentError(code, error.message);
}
