/**
 * The HTTP status of every Quarry error code (docs/architecture.md §6). The table is keyed by the
 * closed ErrorCode union, so the compiler refuses one that misses a code; this test writes every
 * code's status out once more, so changing one is a visible decision.
 */
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS, toHttp } from '../../core/failures.ts';
import { ERROR_CODES, PermanentError, type ErrorCode } from '../../shared/errors.ts';

const EXPECTED: Record<ErrorCode, number> = {
  PASSWORD_REQUIRED: 422,
  NO_TEXT_LAYER: 422,
  GARBLED_TEXT: 422,
  CORRUPT_PDF: 422,
  TOO_LARGE: 413,
  NOT_A_PDF: 400,
  SYMLINK_REFUSED: 400,
  UNSUPPORTED_FEATURE: 422,
  EXTRACT_TIMEOUT: 504,
  INVALID_PAYLOAD: 400,
  INVALID_RESULT: 500,
  INVALID_METADATA: 400,
  ARTIFACT_MISSING: 500,
  EMBEDDING_QUALITY: 502,
  DIMENSION_MISMATCH: 409,
  EMBEDDER_MISMATCH: 409,
  EMBEDDER_UNAVAILABLE: 503,
  RERANKER_UNAVAILABLE: 503,
  LLM_UNAVAILABLE: 503,
  STORE_UNAVAILABLE: 503,
  STORE_REJECTED: 500,
  INVALID_CONFIG: 500,
  WORKER_LOST: 503,
  REDIS_UNAVAILABLE: 503,
  REDIS_EVICTION_POLICY: 500,
  RATE_LIMITED: 429,
  CANCELLED: 503,
  INTERNAL: 500,
};

describe('the HTTP status of every error code', () => {
  it('the table has every code, and each its status', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(HTTP_STATUS[code], code).toBe(EXPECTED[code]);
  });

  it('the 500s are exactly the codes that say Quarry or its configuration is at fault', () => {
    expect(ERROR_CODES.filter((c) => HTTP_STATUS[c] === 500).sort()).toEqual(['ARTIFACT_MISSING', 'INTERNAL', 'INVALID_CONFIG', 'INVALID_RESULT', 'REDIS_EVICTION_POLICY', 'STORE_REJECTED']);
  });

  it('a thrown Quarry error answers its status; a 500 withholds its message', () => {
    for (const code of ERROR_CODES) {
      const { status, body } = toHttp(new PermanentError(code, `details of ${code}`));
      expect(status, code).toBe(EXPECTED[code]);
      expect(body.error).toEqual({ code, message: status === 500 ? 'internal error' : `details of ${code}` });
    }
  });
});
