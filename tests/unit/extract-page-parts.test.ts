import { afterAll, describe, expect, it } from 'vitest';
import type { ExtractedDocument, Page } from '../../shared/domain/extracted.ts';
import { finishPages } from '../../shared/pdf/extract-document.ts';
import { createExtractionPool } from '../../shared/pdf/extraction-pool.ts';
import type { PdfExtractor } from '../../shared/pdf/pdf-extractor.ts';
import { joinParts, withPageSplitting } from '../../shared/pdf/page-parts.ts';
import { MIN_PAGES_PER_PART, pageRange } from '../../shared/pdf/page-range.ts';
import { buildPdf, textPdf } from '../fixtures/pdf-builders.ts';

const LIMITS = { maxBytes: 50_000_000, maxPages: 20_000 };

describe('pageRange', () => {
  it('splits the pages into consecutive ranges that cover each page once; short documents stay whole', () => {
    for (const pageCount of [1, 15, 31, 32, 33, 64, 97, 352]) {
      for (const of of [1, 2, 3, 4]) {
        const covered: number[] = [];
        for (let index = 0; index < of; index++) {
          const { from, to } = pageRange(pageCount, { index, of });
          for (let n = from; n <= to; n++) covered.push(n);
        }
        expect(covered).toEqual(Array.from({ length: pageCount }, (_, i) => i + 1));
      }
    }
    expect(pageRange(2 * MIN_PAGES_PER_PART - 1, { index: 0, of: 2 })).toEqual({ from: 1, to: 2 * MIN_PAGES_PER_PART - 1 });
    expect(pageRange(2 * MIN_PAGES_PER_PART - 1, { index: 1, of: 2 })).toEqual({ from: 1, to: 0 });
    expect(pageRange(352, { index: 1, of: 2 })).toEqual({ from: 177, to: 352 });
  });
});

const WORDS = 'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon maple nectar onyx pepper quartz raven saffron tundra umber violet willow xenon yarrow zephyr acorn birch cobalt dune'.split(' ');
/** Eight body lines no other page has (no page numbers in them), so only real running lines repeat. */
const bodyLines = (n: number): string[] => Array.from({ length: 8 }, (_, j) => `The ${WORDS[(n * 8 + j) % WORDS.length]} clause of part ${WORDS[(n * 3 + j * 7) % WORDS.length]} applies.`);
const page = (number: number, text: string[]): Page => ({ number, width: 595, height: 842, lines: text.map((t, i) => ({ text: t, x: 72, y: 800 - i * 14, fontSize: 11 })) });
const part = (pageCount: number, pages: Page[], first: boolean): ExtractedDocument => ({
  pageCount,
  pages,
  outline: first ? [{ title: 'One', level: 1, page: 1 }] : [],
  info: first ? { title: 'T', creationDate: '2024-01-15' } : { title: null, creationDate: null },
  strippedLines: [],
});

describe('joinParts', () => {
  it('joins the parts in order and finishes them as one document (running lines across parts are stripped)', () => {
    const pages = Array.from({ length: 6 }, (_, i) => page(i + 1, ['ACME annual report', ...bodyLines(i), `Page ${i + 1}`]));
    const joined = joinParts([part(6, pages.slice(0, 3), true), part(6, pages.slice(3), false)]);
    expect(joined).toEqual({ pageCount: 6, ...finishPages(pages), outline: [{ title: 'One', level: 1, page: 1 }], info: { title: 'T', creationDate: '2024-01-15' } });
    expect(joined.strippedLines.length).toBeGreaterThan(0);
  });

  it('fails a document whose every page was unreadable, and one whose parts lost pages', () => {
    const broken = (n: number): Page => ({ number: n, width: 0, height: 0, lines: [] });
    expect(() => joinParts([part(2, [broken(1)], true), part(2, [broken(2)], false)])).toThrow(expect.objectContaining({ code: 'CORRUPT_PDF' }));
    expect(() => joinParts([part(3, [page(1, ['a'])], true), part(3, [page(3, ['c'])], false)])).toThrow(expect.objectContaining({ code: 'INTERNAL' }));
  });
});

describe('withPageSplitting (real extraction children)', () => {
  const pools: PdfExtractor[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });
  const extractors = () => {
    const pool = createExtractionPool({ size: 2, timeoutMs: 120_000, maxHeapMb: 512 });
    pools.push(pool);
    return { pool, split: withPageSplitting(pool, { minBytes: 1, parts: 2 }) };
  };

  it('gives exactly the unsplit document: pages, outline, info, running lines stripped across the parts', async () => {
    const pages = Array.from({ length: 40 }, (_, p) => bodyLines(p));
    const bytes = await textPdf(pages, { title: 'Split me', header: 'ACME Corp annual report', footer: 'Page #' });
    const { pool, split } = extractors();
    const whole = await pool.extract({ bytes }, LIMITS);
    const parted = await split.extract({ bytes }, LIMITS);
    expect(parted).toEqual(whole);
    expect(parted.pageCount).toBe(40);
    expect(parted.strippedLines.length).toBeGreaterThan(0);
    expect(parted.pages[39]?.lines.map((l) => l.text)).toContain(bodyLines(39)[3]);
  }, 60_000);

  it('an image-only (scanned) file fails as the unsplit extraction does; a file that cannot be parsed fails with its code', async () => {
    const scanned = await buildPdf({ pages: Array.from({ length: 40 }, () => ({ runs: [], image: true })) });
    const { pool, split } = extractors();
    const unsplit = await pool.extract({ bytes: scanned }, LIMITS).catch((e: unknown) => e);
    expect(unsplit).toMatchObject({ code: 'NO_TEXT_LAYER' });
    await expect(split.extract({ bytes: scanned }, LIMITS)).rejects.toMatchObject({ code: 'NO_TEXT_LAYER', message: (unsplit as Error).message });
    await expect(split.extract({ bytes: new Uint8Array([37, 80, 68, 70, 45, 49, 46, 55, 10, 37, 37, 69, 79, 70]) }, LIMITS)).rejects.toMatchObject({ code: 'CORRUPT_PDF' });
  }, 60_000);

  it('small files and parts go through unsplit; a cancelled call cancels every part', async () => {
    const calls: unknown[] = [];
    const fake: PdfExtractor = {
      extract: async (input) => {
        calls.push(input.part ?? 'whole');
        return part(1, [page(1, ['x'])], true);
      },
      warm: async () => undefined,
      close: async () => undefined,
    };
    const split = withPageSplitting(fake, { minBytes: 100, parts: 2 });
    await split.extract({ bytes: new Uint8Array(99) }, LIMITS);
    expect(calls).toEqual(['whole']);
    const { pool, split: real } = extractors();
    const bytes = await textPdf(Array.from({ length: 40 }, (_, p) => [`Page ${p + 1} text that is long enough to count as a text layer.`]));
    const abort = new AbortController();
    const pending = real.extract({ bytes }, LIMITS, { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
    // The pool is still usable afterwards.
    expect((await real.extract({ bytes }, LIMITS)).pageCount).toBe(40);
    void pool;
  }, 60_000);
});
