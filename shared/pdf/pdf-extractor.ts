import type { ExtractedDocument } from '../domain/index.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';

/** Per-call options of `PdfExtractor.extract`. */
export interface ExtractCallOptions {
  /** Aborting it kills the extraction's child at once (shutdown); the call rejects with CANCELLED. */
  signal?: AbortSignal;
}

/** Extracts PDFs away from the caller's process. */
export interface PdfExtractor {
  /**
   * @throws PermanentError with the extraction's code (TOO_LARGE, PASSWORD_REQUIRED, CORRUPT_PDF,
   *   NO_TEXT_LAYER, GARBLED_TEXT, UNSUPPORTED_FEATURE); EXTRACT_TIMEOUT past the deadline; TOO_LARGE when the
   *   child's memory goes over its limit; INTERNAL when a child dies otherwise.
   * @throws RetryableError CANCELLED when `options.signal` aborts first.
   */
  extract(input: ExtractInput, limits: ExtractLimits, options?: ExtractCallOptions): Promise<ExtractedDocument>;
  /**
   * Starts `children` regular children (1 by default; at most the pool's size) ahead of the first
   * job and settles once they are ready (pdf.js loaded) or failed to start, so a worker's first
   * document does not wait for them. Never rejects: a child that cannot start fails the first job
   * instead.
   */
  warm(children?: number): Promise<void>;
  /** Kills every child; jobs still queued or running fail with INTERNAL. */
  close(): Promise<void>;
}
