import type { ExtractedDocument } from '../../shared/domain/index.ts';
import { extractDocument, type ExtractHooks, type ExtractInput, type ExtractLimits } from '../../shared/pdf/index.ts';

export type { ExtractHooks, ExtractInput, ExtractLimits } from '../../shared/pdf/index.ts';

/**
 * The extract stage: PDF bytes in, cleaned per-page lines, outline and info out. Pure (no env,
 * clock, Redis or logging); run it through an extraction pool (shared/pdf/extraction-pool.ts)
 * when the bytes are untrusted, so a pathological file cannot stall or exhaust the worker.
 *
 * @param hooks - optional observers, e.g. to record pages that were skipped as unreadable.
 * @throws PermanentError TOO_LARGE, PASSWORD_REQUIRED, CORRUPT_PDF, NO_TEXT_LAYER, GARBLED_TEXT or UNSUPPORTED_FEATURE.
 */
export async function extractStage(
  input: { bytes: Uint8Array; password?: string },
  limits: ExtractLimits,
  hooks: ExtractHooks = {},
): Promise<ExtractedDocument> {
  const request: ExtractInput = input;
  return extractDocument(request, limits, hooks);
}
