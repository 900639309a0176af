import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { ExtractedDocument as ExtractedDocumentSchema } from '../../shared/domain/extracted.ts';
import { PermanentError } from '../../shared/errors.ts';
import { createExtractionPool } from '../../shared/pdf/extraction-pool.ts';
import { extractIsolated } from '../../shared/pdf/isolated-extract.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { buildPdf, textPdf } from '../fixtures/pdf-builders.ts';

const LIMITS = { maxBytes: 5_000_000, maxPages: 100 };
const ISOLATION = { timeoutMs: 20_000, maxHeapMb: 256 };

function allText(doc: ExtractedDocument): string[] {
  return doc.pages.flatMap((p) => p.lines.map((l) => l.text));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (err) {
    expect(err).toBeInstanceOf(PermanentError);
    return (err as PermanentError).code;
  }
}

describe('extractStage: text', () => {
  it('rebuilds lines in reading order with position and font size', async () => {
    const bytes = await textPdf([['Quarry extraction test', 'Second line of body text', 'Third and last line']], { size: 12 });
    const doc = await extractStage({ bytes }, LIMITS);
    expect(ExtractedDocumentSchema.parse(doc)).toEqual(doc);
    expect(doc.pageCount).toBe(1);
    expect(allText(doc)).toEqual(['Quarry extraction test', 'Second line of body text', 'Third and last line']);
    const first = doc.pages[0]?.lines[0];
    expect(first).toMatchObject({ x: 72, y: 770, fontSize: 12 });
    expect(doc.pages[0]).toMatchObject({ number: 1, width: 595, height: 842 });
  });

  it('gives each line its printed width: what Helvetica measures for the text at its size', async () => {
    const text = ['Quarry extraction test', 'A longer second line of body text'];
    const doc = await extractStage({ bytes: await textPdf([text], { size: 12 }) }, LIMITS);
    // pdf-lib's own metrics of the font it drew with: independent of pdf.js and the line builder.
    // pdf.js reads the standard font's widths from its own tables, a few hundredths of a point
    // apart per glyph, so within half a point (a tenth of a letter), not to the hundredth.
    const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const widths = doc.pages[0]?.lines.map((l) => l.width) ?? [];
    expect(widths).toHaveLength(2);
    text.forEach((t, i) => expect(widths[i]).toBeCloseTo(helvetica.widthOfTextAtSize(t, 12), 0));
  });

  it('joins runs of one baseline, inserting a space only at real gaps', async () => {
    const bytes = await buildPdf({
      pages: [
        {
          runs: [
            { text: 'Hel', x: 72, y: 700 },
            { text: 'lo', x: 72 + 16.5, y: 700 }, // right after "Hel" (11pt Helvetica)
            { text: 'World', x: 140, y: 700 },
            { text: 'Bold', x: 72, y: 600, bold: true },
            { text: 'then regular', x: 100, y: 600 },
          ],
        },
      ],
    });
    const doc = await extractStage({ bytes }, LIMITS);
    expect(allText(doc)).toEqual(['Hello World', 'Bold then regular']);
  });

  it('joins words hyphenated at a line end and keeps hyphens inside a line', async () => {
    const bytes = await textPdf([['The e-mail gives an exam-', 'ple of joining, and a well-', 'Known hyphen stays.']]);
    const doc = await extractStage({ bytes }, LIMITS);
    expect(allText(doc)).toEqual(['The e-mail gives an example', 'of joining, and a well-', 'Known hyphen stays.']);
  });

  it('reads rotated pages and rotated runs', async () => {
    const bytes = await buildPdf({
      pages: [
        {
          rotation: 90,
          runs: [
            { text: 'Landscape page text', x: 100, y: 400 },
            { text: 'Vertical margin note', x: 40, y: 200, rotate: 90 },
            { text: 'Upside down', x: 400, y: 100, rotate: 180 },
          ],
        },
      ],
    });
    const doc = await extractStage({ bytes }, LIMITS);
    expect(allText(doc)).toEqual(['Landscape page text', 'Vertical margin note', 'Upside down']);
  });

  it('reads the title and creation date from the Info dictionary', async () => {
    const bytes = await textPdf([['Body text of the document']], {
      title: 'Microsoft Word - Annual Report.doc',
      creationDate: new Date(Date.UTC(2023, 4, 17, 12)),
    });
    const doc = await extractStage({ bytes }, LIMITS);
    expect(doc.info).toEqual({ title: 'Annual Report', creationDate: '2023-05-17' });
    expect(doc.outline).toEqual([]);
  });
});

describe('extractStage: running headers and footers', () => {
  it('strips lines repeated at the top and bottom of every page, keeping a title that reads the same', async () => {
    const words = ['Revenue grew in every region.', 'Costs fell after the merger.', 'Hiring slowed in spring.', 'Outlook remains stable.'];
    const notes = ['See the appendix for tables.', 'Figures are unaudited.', 'All amounts in euros.', 'Prepared by the board.'];
    const body = (n: number): string[] => [words[n - 1] ?? '', notes[n - 1] ?? '', words[n % 4] ?? ''];
    const pages = [['ACME Annual Report', ...body(1)], body(2), body(3), body(4)];
    const bytes = await textPdf(pages, { header: 'ACME Annual Report', footer: 'Page # of 4', top: 740 });
    const doc = await extractStage({ bytes }, LIMITS);
    const text = allText(doc);
    expect(text.filter((t) => t === 'ACME Annual Report')).toHaveLength(1); // the title on page 1, not the header
    expect(text.some((t) => /^Page \d of 4$/.test(t))).toBe(false);
    expect(doc.strippedLines).toEqual(expect.arrayContaining(['ACME Annual Report', 'Page 1 of 4']));
    expect(doc.pages.map((p) => p.lines.length)).toEqual([4, 3, 3, 3]);
  });

  it('a two-page document loses the head and foot both its pages print; a single page keeps them', async () => {
    const bytes = await textPdf([['Only page one', 'and its second line'], ['Only page two', 'and its second line']], { header: 'Header', footer: 'Footer #' });
    const doc = await extractStage({ bytes }, LIMITS);
    expect(doc.strippedLines).toEqual(['Header', 'Footer 1']);
    expect(allText(doc)).not.toContain('Header');
    expect(allText(doc)).toContain('Only page two');
    const single = await extractStage({ bytes: await textPdf([['Only page one', 'and its second line']], { header: 'Header', footer: 'Footer #' }) }, LIMITS);
    expect(single.strippedLines).toEqual([]);
    expect(allText(single)).toContain('Header');
  });
});

describe('extractStage: failures', () => {
  it('fails bytes that are not a PDF with CORRUPT_PDF, giving the reason', async () => {
    const err = await extractStage({ bytes: new TextEncoder().encode('this is not a pdf at all') }, LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'CORRUPT_PDF', retryable: false });
    expect((err as Error).message).toMatch(/could not be parsed \(.+\)/);
    expect(await codeOf(extractStage({ bytes: new Uint8Array(0) }, LIMITS))).toBe('CORRUPT_PDF');
  });

  it('fails a truncated PDF with CORRUPT_PDF or recovers its text', async () => {
    const bytes = await textPdf([['Truncated document text']]);
    const code = await codeOf(extractStage({ bytes: bytes.slice(0, 200) }, LIMITS));
    expect(['CORRUPT_PDF', 'NO_TEXT_LAYER']).toContain(code);
  });

  it('enforces the byte limit before parsing and the page limit after opening', async () => {
    const garbage = new Uint8Array(2048);
    expect(await codeOf(extractStage({ bytes: garbage }, { maxBytes: 1024, maxPages: 10 }))).toBe('TOO_LARGE');
    const bytes = await textPdf([['one'], ['two'], ['three']]);
    const err = await extractStage({ bytes }, { maxBytes: 1_000_000, maxPages: 2 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TOO_LARGE' });
    expect((err as Error).message).toContain('3 pages');
  });

  it('fails a blank document and a scanned-looking one with NO_TEXT_LAYER, but keeps a tiny real text', async () => {
    const blank = await buildPdf({ pages: [{ runs: [] }, { runs: [] }] });
    const blankErr = await extractStage({ bytes: blank }, LIMITS).catch((e: unknown) => e);
    expect(blankErr).toMatchObject({ code: 'NO_TEXT_LAYER' });
    expect((blankErr as Error).message).toContain('0 non-space characters on 2 pages');

    const scan = await buildPdf({ pages: [{ image: true, runs: [{ text: 'pdf.js', x: 40, y: 40 }] }] });
    expect(await codeOf(extractStage({ bytes: scan }, LIMITS))).toBe('NO_TEXT_LAYER');

    const tiny = await buildPdf({ pages: [{ runs: [{ text: 'Hello, world!', x: 72, y: 700 }] }] });
    expect(allText(await extractStage({ bytes: tiny }, LIMITS))).toEqual(['Hello, world!']);
  });

  it('leaves the caller\u2019s bytes intact (pdf.js only ever sees a copy)', async () => {
    const bytes = await textPdf([['Some text for the copy check']]);
    const before = bytes.byteLength;
    await extractStage({ bytes }, LIMITS);
    expect(bytes.byteLength).toBe(before);
    expect(bytes[0]).toBe(0x25); // "%"
  });
});

describe('extractIsolated', () => {
  it('gives the same document as the in-process stage and leaves the input usable', async () => {
    const bytes = await textPdf([['Isolated extraction works', 'in a child process']], { title: 'Isolation' });
    const isolated = await extractIsolated({ bytes }, LIMITS, ISOLATION);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(isolated).toEqual(await extractStage({ bytes }, LIMITS));
  });

  it('brings errors back with their code and message', async () => {
    const err = await extractIsolated({ bytes: new TextEncoder().encode('%PDF-1.7 broken') }, LIMITS, ISOLATION).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'CORRUPT_PDF', retryable: false });
    expect((err as Error).message).toMatch(/could not be parsed/);
    const blank = await buildPdf({ pages: [{ runs: [] }] });
    expect(await codeOf(extractIsolated({ bytes: blank }, LIMITS, ISOLATION))).toBe('NO_TEXT_LAYER');
  });

  it('refuses oversize input without starting a child', async () => {
    expect(await codeOf(extractIsolated({ bytes: new Uint8Array(4096) }, { maxBytes: 1000, maxPages: 5 }, ISOLATION))).toBe('TOO_LARGE');
  });

  it('stops at the deadline with EXTRACT_TIMEOUT', async () => {
    const bytes = await textPdf([['Slow enough for a 5 ms budget']]);
    const err = await extractIsolated({ bytes }, LIMITS, { timeoutMs: 5, maxHeapMb: 256 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'EXTRACT_TIMEOUT' });
  });

  it('maps a child that runs out of heap to TOO_LARGE', async () => {
    const bytes = await textPdf([['Loading pdf.js alone needs more than 8 MB of heap']]);
    const err = await extractIsolated({ bytes }, LIMITS, { timeoutMs: 20_000, maxHeapMb: 8 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TOO_LARGE' });
  });

  it('works from a plain `tsx` process too (the worker registers tsx itself)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quarry-isolated-'));
    try {
      const bytes = await textPdf([['Extracted under tsx']]);
      const pdfPath = path.join(dir, 'in.pdf');
      await writeFile(pdfPath, bytes);
      const moduleUrl = pathToFileURL(path.resolve(import.meta.dirname, '../../shared/pdf/isolated-extract.ts')).href;
      const script = path.join(dir, 'run.mts');
      await writeFile(
        script,
        [
          `import { readFileSync } from 'node:fs';`,
          `import { extractIsolated } from ${JSON.stringify(moduleUrl)};`,
          `const doc = await extractIsolated({ bytes: new Uint8Array(readFileSync(${JSON.stringify(pdfPath)})) }, { maxBytes: 1e7, maxPages: 10 }, { timeoutMs: 20000, maxHeapMb: 256 });`,
          `console.log(JSON.stringify(doc.pages[0].lines.map((l) => l.text)));`,
        ].join('\n'),
      );
      const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
      const { stdout } = await promisify(execFile)(process.execPath, [tsxCli, script], { timeout: 30_000 });
      expect(JSON.parse(stdout.trim())).toEqual(['Extracted under tsx']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('extraction pool', () => {
  it('reuses children across jobs, queues beyond its size, and fails only the bad job', async () => {
    const pool = createExtractionPool({ size: 2, timeoutMs: 20_000, maxHeapMb: 256 });
    try {
      const good = await Promise.all([0, 1, 2, 3].map((i) => textPdf([[`Pooled document number ${i}`]])));
      const results = await Promise.allSettled([
        ...good.map((bytes) => pool.extract({ bytes }, LIMITS)),
        pool.extract({ bytes: new TextEncoder().encode('%PDF-1.7 broken') }, LIMITS),
      ]);
      expect(results.slice(0, 4).map((r) => (r.status === 'fulfilled' ? r.value.pages[0]?.lines[0]?.text : r.reason))).toEqual([0, 1, 2, 3].map((i) => `Pooled document number ${i}`));
      expect(results[4]).toMatchObject({ status: 'rejected', reason: { code: 'CORRUPT_PDF' } });
      // A later job on a warm child still works.
      expect((await pool.extract({ bytes: good[0]! }, LIMITS)).pageCount).toBe(1);
    } finally {
      await pool.close();
    }
    await expect(pool.extract({ bytes: new Uint8Array(10) }, LIMITS)).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('replaces a child that timed out, so the job queued behind it still gets an answer', async () => {
    const pool = createExtractionPool({ size: 1, timeoutMs: 1, maxHeapMb: 256 });
    try {
      const bytes = await textPdf([['Too slow for one millisecond']]);
      const both = await Promise.allSettled([pool.extract({ bytes }, LIMITS), pool.extract({ bytes }, LIMITS)]);
      expect(both).toMatchObject([
        { status: 'rejected', reason: { code: 'EXTRACT_TIMEOUT' } },
        { status: 'rejected', reason: { code: 'EXTRACT_TIMEOUT' } },
      ]);
    } finally {
      await pool.close();
    }
  });
});
