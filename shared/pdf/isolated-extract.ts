import type { ExtractedDocument } from '../domain/index.ts';
import { createExtractionPool } from './extraction-pool.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';

/** Bounds on one isolated extraction. */
export interface IsolationOptions {
  /** Deadline once the child is ready, in ms (the upper bound; small files get less). */
  timeoutMs: number;
  /** V8 old-generation heap limit of the child, in MB. */
  maxHeapMb: number;
  /** Resident memory limit of the child, in MB (pdf.js buffers included). @defaultValue 448 */
  maxRssMb?: number;
}

/**
 * One extraction in a fresh child process of its own, closed afterwards: for one-off callers
 * (scripts, tests). Long-running workers keep an extraction pool instead, so start-up is paid once.
 * @throws PermanentError as `PdfExtractor.extract` does.
 */
export async function extractIsolated(input: ExtractInput, limits: ExtractLimits, isolation: IsolationOptions): Promise<ExtractedDocument> {
  const pool = createExtractionPool({ size: 1, spareSlots: 0, ...isolation });
  try {
    return await pool.extract(input, limits);
  } finally {
    await pool.close();
  }
}
