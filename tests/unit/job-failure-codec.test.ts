/**
 * The one codec job failures travel through (shared/errors.ts): the runtime encodes, and the
 * worker's `failed` event, the reconciler, the gateway's run view and the MCP `ask` tool decode.
 */
import { describe, expect, it } from 'vitest';
import { decodeFailure, describeError, encodeFailure, ERROR_CODES, isErrorCode, PermanentError, RetryableError, STALL_LIMIT_REASON, type ErrorCode } from '../../shared/errors.ts';

const MESSAGES = [
  'broken xref',
  'weaviate: connect ECONNREFUSED 127.0.0.1:8080',
  'CORRUPT_PDF: a message that itself looks coded',
  'first line\nsecond line: with a colon\n\nfourth',
  '',
  '  leading and trailing blanks  \n',
  'job stalled more than allowable limit (quoted inside a coded message)',
  'unicode: 출산 장려금 — “quotes”',
];

describe('the job-failure codec', () => {
  it('round-trips every error code with any message: colons, newlines, blanks, an empty one', () => {
    for (const code of ERROR_CODES) {
      for (const message of MESSAGES) expect(decodeFailure(encodeFailure({ code, message })), `${code} / ${JSON.stringify(message)}`).toEqual({ code, message });
    }
  });

  it('encodes as `CODE: message`, the form BullMQ keeps as failedReason', () => {
    expect(encodeFailure({ code: 'STORE_UNAVAILABLE', message: 'try later' })).toBe('STORE_UNAVAILABLE: try later');
  });

  it("reads BullMQ's stall limit as WORKER_LOST", () => {
    expect(decodeFailure(STALL_LIMIT_REASON)).toMatchObject({ code: 'WORKER_LOST' });
    expect(decodeFailure(`  ${STALL_LIMIT_REASON}\n`)).toMatchObject({ code: 'WORKER_LOST' });
  });

  it('reads a code it does not know, or no code, as INTERNAL keeping the whole reason', () => {
    expect(decodeFailure('NOT_A_CODE_WE_HAVE: from a newer worker')).toEqual({ code: 'INTERNAL', message: 'NOT_A_CODE_WE_HAVE: from a newer worker' });
    expect(decodeFailure('TIMEOUT: a gateway code is no job failure')).toEqual({ code: 'INTERNAL', message: 'TIMEOUT: a gateway code is no job failure' });
    expect(decodeFailure('Missing lock for job 12. moveToFinished')).toEqual({ code: 'INTERNAL', message: 'Missing lock for job 12. moveToFinished' });
    expect(decodeFailure('corrupt_pdf: lower case is no code')).toEqual({ code: 'INTERNAL', message: 'corrupt_pdf: lower case is no code' });
    expect(decodeFailure('CORRUPT_PDF:no space after the colon')).toEqual({ code: 'INTERNAL', message: 'CORRUPT_PDF:no space after the colon' });
  });

  it('reads an empty or absent reason as INTERNAL with a message saying so', () => {
    for (const reason of [undefined, null, '', '  \n']) expect(decodeFailure(reason)).toEqual({ code: 'INTERNAL', message: 'the job failed without a reason' });
  });

  it('tolerates blanks around a coded reason', () => {
    expect(decodeFailure('\n CORRUPT_PDF: broken xref \n')).toEqual({ code: 'CORRUPT_PDF', message: 'broken xref' });
  });

  it('what the runtime encodes from a thrown value comes back as describeError said', () => {
    const thrown: unknown[] = [new PermanentError('NO_TEXT_LAYER', 'scanned pages'), new RetryableError('LLM_UNAVAILABLE', 'HTTP 503: busy'), new Error('boom: at x'), 'a string'];
    for (const err of thrown) expect(decodeFailure(encodeFailure(describeError(err)))).toEqual(describeError(err));
  });
});

describe('ErrorCode: a closed list', () => {
  it('lists each code once, SCREAMING_SNAKE', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it('isErrorCode knows exactly the listed codes', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const s of ['NOT_FOUND', 'TIMEOUT', 'internal', '', undefined]) expect(isErrorCode(s)).toBe(false);
  });

  it('refuses a code smuggled past the type', () => {
    expect(() => new PermanentError('NOT_A_CODE' as ErrorCode, 'x')).toThrow(TypeError);
  });
});
