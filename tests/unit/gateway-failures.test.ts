/**
 * The gateway's pure pieces behind issue 27: what a 500's log line says, the upload's checks (the
 * watched folder's own), and which failed documents a retry can run.
 */
import { describe, expect, it } from 'vitest';
import { failureFields, HTTP_STATUS } from '../../core/failures.ts';
import { checkUpload } from '../../core/documents/upload.ts';
import { createRetryableCheck, isRetryable } from '../../core/documents/retry.ts';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';

const pdfBytes = Buffer.from('%PDF-1.7\n%rest of a PDF\n');

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof PermanentError ? err.code : `not a PermanentError: ${String(err)}`;
  }
}

describe('failureFields: the cause a 500 is logged with', () => {
  it('an error: name, code, message, stack and its own cause', () => {
    const err = Object.assign(new Error("ENOENT: no such file or directory, open 'inbox/x.pdf'"), { code: 'ENOENT' });
    const fields = failureFields(new RetryableError('STORE_UNAVAILABLE', 'store down', { cause: err }));
    expect(fields).toMatchObject({ error: { name: 'RetryableError', code: 'STORE_UNAVAILABLE', message: 'store down', stack: expect.stringContaining('RetryableError'), cause: { name: 'Error', message: err.message } } });
    expect(failureFields(err)).toMatchObject({ error: { name: 'Error', code: 'ENOENT' } });
  });

  it('a failed run: its code and run id only; nothing else it carries', () => {
    expect(failureFields({ code: 'INTERNAL', runId: 'r1', question: 'secret question' })).toEqual({ error: { code: 'INTERNAL', runId: 'r1' } });
  });

  it('no recorded cause (a plugin answered 500 itself): said so', () => {
    expect(failureFields(null)).toEqual({ error: { code: 'UNKNOWN' } });
    expect(failureFields({ message: 'no code' })).toEqual({ error: { code: 'UNKNOWN' } });
  });
});

describe('checkUpload: the watched folder\'s checks on an upload', () => {
  const check = (bytes: Buffer, rawMeta?: string, maxSourceBytes = 1000) => () => checkUpload({ filename: 'a.pdf', bytes, rawMeta, maxSourceBytes });

  it('refuses what the watcher refuses, with its codes', () => {
    expect(codeOf(check(Buffer.from('hello')))).toBe('NOT_A_PDF');
    expect(codeOf(check(Buffer.alloc(0)))).toBe('NOT_A_PDF');
    expect(codeOf(check(Buffer.concat([pdfBytes, Buffer.alloc(1000)])))).toBe('TOO_LARGE');
    expect(codeOf(check(pdfBytes, '{"valid_from": "soon"}'))).toBe('INVALID_METADATA');
    expect(codeOf(check(pdfBytes, 'not json'))).toBe('INVALID_METADATA');
    for (const code of ['NOT_A_PDF', 'TOO_LARGE', 'INVALID_METADATA'] as const) expect(HTTP_STATUS[code], code).toBeLessThan(500);
  });

  it('accepts what the watcher accepts: junk before the header within the first KiB, no or blank metadata', () => {
    expect(checkUpload({ filename: 'a.pdf', bytes: Buffer.concat([Buffer.from('junk\n'), pdfBytes]), rawMeta: undefined, maxSourceBytes: 1000 })).toBeNull();
    expect(checkUpload({ filename: 'a.pdf', bytes: pdfBytes, rawMeta: '  ', maxSourceBytes: 1000 })).toBeNull();
    expect(checkUpload({ filename: 'a.pdf', bytes: pdfBytes, rawMeta: '{"doc_type":"faq"}', maxSourceBytes: 1000 })).toEqual({ doc_type: 'faq' });
  });
});

describe('retryable documents', () => {
  const doc = (docId: string, state: DocStatus['state']): DocStatus => ({
    docId,
    sourceKey: `dir:${docId}.pdf`,
    version: `v-${docId}`,
    gen: 1,
    state,
    stage: 'extract',
    progress: 0,
    errorCode: state === 'failed' ? 'CORRUPT_PDF' : null,
    errorMessage: null,
    timings: {},
    pageCount: null,
    chunkCount: null,
    registeredAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  });

  it('only a failed document with a stored source', () => {
    expect(isRetryable({ state: 'failed' }, true)).toBe(true);
    expect(isRetryable({ state: 'failed' }, false)).toBe(false);
    expect(isRetryable({ state: 'indexed' }, true)).toBe(false);
  });

  it('looks up failed documents only, and remembers a stored source once seen', async () => {
    const asked: string[] = [];
    const stored = new Set(['kept']);
    const check = createRetryableCheck({
      exists: async (docId) => {
        asked.push(docId);
        return stored.has(docId);
      },
    });
    const docs = [doc('kept', 'failed'), doc('refused', 'failed'), doc('fine', 'indexed')];
    expect((await check(docs)).map((d) => [d.docId, d.retryable])).toEqual([
      ['kept', true],
      ['refused', false],
      ['fine', false],
    ]);
    await check(docs);
    // The stored source is not asked for again; a missing one is (a fixed file may store it).
    expect(asked.sort()).toEqual(['kept', 'refused', 'refused']);
  });
});
