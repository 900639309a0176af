import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import type { ExtractedDocument, Page } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';
import { readInfo } from './document-info.ts';
import type { ExtractHooks, ExtractInput, ExtractLimits } from './limits.ts';
import { buildLines } from './line-builder.ts';
import { openPdf } from './open-document.ts';
import { readOutline } from './outline.ts';
import { reasonOf } from './pdf-errors.ts';
import { stripRunningLines } from './running-lines.ts';
import { joinHyphenatedLines } from './text-normalise.ts';
import { assertTextLayer } from './text-layer.ts';
import { pageRange, type PageRange } from './page-range.ts';
import { assertReadableText } from './text-quality.ts';

/** How the bytes are handed over. */
export interface ExtractOptions extends ExtractHooks {
  /**
   * The caller gives up `input.bytes` (an isolated worker that received them by transfer), so
   * they go to pdf.js without the defensive copy. @defaultValue false
   */
  ownsBytes?: boolean;
}

function checkLimits(limits: ExtractLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`extract limit ${name} must be a positive number, got ${value}`);
  }
}

async function readPage(doc: PDFDocumentProxy, number: number): Promise<Page> {
  const page = await doc.getPage(number);
  try {
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
    const content = await page.getTextContent();
    const lines = buildLines(content.items).map((l) => ({
      ...l,
      y: l.y - y0,
      x: l.x - x0,
      // Cells move with their line: they are x positions on the same page.
      ...(l.cells ? { cells: l.cells.map(([x, w, t]): [number, number, string] => [x - x0, w, t]) } : {}),
    }));
    return { number, width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), lines };
  } finally {
    // Drops fonts and parsed resources of this page: a 350-page book stays small.
    page.cleanup();
  }
}

async function readPages(doc: PDFDocumentProxy, hooks: ExtractHooks, range: PageRange = { from: 1, to: doc.numPages }): Promise<Page[]> {
  const pages: Page[] = [];
  const failures: string[] = [];
  for (let n = range.from; n <= range.to; n++) {
    try {
      pages.push(await readPage(doc, n));
    } catch (err) {
      // One broken page must not sink the document: keep its number, with no lines.
      const reason = reasonOf(err);
      failures.push(`page ${n}: ${reason}`);
      hooks.onPageError?.(n, reason);
      pages.push({ number: n, width: 0, height: 0, lines: [] });
    }
  }
  // A part of a document (see page-parts.ts) leaves this check to the whole (finishPages).
  if (failures.length === doc.numPages) {
    throw new PermanentError('CORRUPT_PDF', `No page of the PDF could be read (${failures.slice(0, 3).join('; ')})`);
  }
  return pages;
}

/**
 * The document-wide tail of an extraction, pure: fails a mojibake text layer (GARBLED_TEXT),
 * strips running headers/footers and joins hyphenated lines. Runs in the child for a whole
 * document, and in the parent once a split document's parts are put back together.
 *
 * @throws PermanentError GARBLED_TEXT
 */
export function finishPages(raw: Page[]): { pages: Page[]; strippedLines: string[]; runningChars: number } {
  assertReadableText(raw);
  const { pages, stripped, strippedChars } = stripRunningLines(raw);
  return { pages: pages.map((p) => ({ ...p, lines: joinHyphenatedLines(p.lines) })), strippedLines: stripped, runningChars: strippedChars };
}

/**
 * Extracts cleaned per-page lines, the outline and the info of a PDF. Pure: no I/O besides
 * parsing the given bytes, no clock, no logging.
 *
 * @throws PermanentError TOO_LARGE (bytes or pages over the limits), PASSWORD_REQUIRED,
 *   CORRUPT_PDF, NO_TEXT_LAYER, GARBLED_TEXT (mojibake text layer), UNSUPPORTED_FEATURE (XFA
 *   form without page text).
 */
export async function extractDocument(
  input: ExtractInput,
  limits: ExtractLimits,
  options: ExtractOptions = {},
): Promise<ExtractedDocument> {
  checkLimits(limits);
  const size = input.bytes.byteLength;
  if (size > limits.maxBytes) {
    throw new PermanentError('TOO_LARGE', `PDF is ${size} bytes, over the ${limits.maxBytes}-byte limit`);
  }
  if (size === 0) throw new PermanentError('CORRUPT_PDF', 'PDF could not be parsed (the file is empty)');

  // pdf.js detaches the buffer it is given, so it gets a copy unless the caller gave it up.
  const doc = await openPdf(options.ownsBytes ? input.bytes : input.bytes.slice(), input.password);
  try {
    const pageCount = doc.numPages;
    if (!Number.isInteger(pageCount) || pageCount < 1) {
      throw new PermanentError('CORRUPT_PDF', `PDF could not be parsed (invalid page count ${pageCount})`);
    }
    if (pageCount > limits.maxPages) {
      throw new PermanentError('TOO_LARGE', `PDF has ${pageCount} pages, over the ${limits.maxPages}-page limit`);
    }
    options.onOpened?.(pageCount);
    const { info, hasXfa } = await readInfo(doc);
    if (input.part) {
      // One part of a split document: its pages as read, unfinished; the first part brings the
      // outline and the info. The caller checks and finishes the whole (page-parts.ts).
      const first = input.part.index === 0;
      return {
        pageCount,
        pages: await readPages(doc, options, pageRange(pageCount, input.part)),
        outline: first ? await readOutline(doc) : [],
        info: first ? info : { title: null, creationDate: null },
        strippedLines: [],
      };
    }
    const raw = await readPages(doc, options);
    try {
      await assertTextLayer(doc, raw);
    } catch (err) {
      if (hasXfa && err instanceof PermanentError && err.code === 'NO_TEXT_LAYER') {
        throw new PermanentError('UNSUPPORTED_FEATURE', 'PDF is an XFA form whose text lives outside the pages; XFA is not supported', { cause: err });
      }
      throw err;
    }
    const { pages, strippedLines, runningChars } = finishPages(raw);
    return { pageCount, pages, outline: await readOutline(doc), info, strippedLines, runningChars };
  } finally {
    await doc.destroy();
  }
}
