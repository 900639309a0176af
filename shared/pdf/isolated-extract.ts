import type { ExtractedDocument } from '../domain/extracted.ts';
import { createExtractionPool } from './extraction-pool.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';

/** Bounds on one isolated extraction. */
export interface IsolationOptions {
  /** Deadline once the thread is ready, in ms. */
  timeoutMs: number;
  /** V8 old-generation heap limit of the thread, in MB. pdf.js image buffers live outside it. */
  maxHeapMb: number;
}

/**
 * One extraction in a fresh thread of its own, closed afterwards: for one-off callers (scripts,
 * tests). Long-running workers keep an extraction pool instead, so thread start-up is paid once.
 * @throws PermanentError as `PdfExtractor.extract` does.
 */
export async function extractIsolated(input: ExtractInput, limits: ExtractLimits, isolation: IsolationOptions): Promise<ExtractedDocument> {
  const pool = createExtractionPool({ size: 1, ...isolation });
  try {
    return await pool.extract(input, limits);
  } finally {
    await pool.close();
  }
}
