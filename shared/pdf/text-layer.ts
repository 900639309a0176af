import { getResolvedPDFJS } from 'unpdf';
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import type { Page } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';

/** What counts as "no text layer". */
export interface TextLayerOptions {
  /** Fewer non-space characters than this in the whole document is suspect. @defaultValue 20 */
  minChars: number;
  /** Fewer per page on average is suspect ("a handful per page"). @defaultValue 8 */
  minCharsPerPage: number;
  /** Pages probed for painted images when the text is suspect. @defaultValue 3 */
  probePages: number;
}

const DEFAULTS: TextLayerOptions = { minChars: 20, minCharsPerPage: 8, probePages: 3 };

/** Non-space characters of a page. */
export function pageChars(page: Page): number {
  let n = 0;
  for (const line of page.lines) n += line.text.replace(/\s/g, '').length;
  return n;
}

async function imageOps(): Promise<Set<number>> {
  const { OPS } = await getResolvedPDFJS();
  const names = [
    'paintImageXObject',
    'paintInlineImageXObject',
    'paintInlineImageXObjectGroup',
    'paintImageXObjectRepeat',
    'paintImageMaskXObject',
    'paintImageMaskXObjectGroup',
    'paintImageMaskXObjectRepeat',
  ] as const;
  const ops = new Set<number>();
  for (const name of names) {
    const op = (OPS as Record<string, number | undefined>)[name];
    if (op !== undefined) ops.add(op);
  }
  return ops;
}

/** True when any of the probed pages paints an image (looks scanned). */
async function paintsImages(doc: PDFDocumentProxy, pageNumbers: readonly number[]): Promise<boolean> {
  const ops = await imageOps();
  for (const n of pageNumbers) {
    try {
      const page = await doc.getPage(n);
      const list = await page.getOperatorList({ intent: 'print' });
      page.cleanup();
      if (list.fnArray.some((op) => ops.has(op))) return true;
    } catch {
      // A page that cannot be drawn tells us nothing either way.
    }
  }
  return false;
}

/** Up to `count` page numbers spread over the document. */
function spread(pageCount: number, count: number): number[] {
  if (pageCount <= count) return Array.from({ length: pageCount }, (_, i) => i + 1);
  return [...new Set(Array.from({ length: count }, (_, i) => 1 + Math.round((i * (pageCount - 1)) / (count - 1))))];
}

/**
 * True when `pages` hold too little text for {@link assertTextLayer} to pass them without looking
 * at the document (none at all, or so little it may be a scan). Pure.
 */
export function textLayerSuspect(pages: readonly Page[], options: Partial<TextLayerOptions> = {}): boolean {
  const opts = { ...DEFAULTS, ...options };
  const total = pages.reduce((sum, p) => sum + pageChars(p), 0);
  return total === 0 || total < opts.minChars || total < opts.minCharsPerPage * pages.length;
}

/**
 * Fails documents with essentially no text: none at all, or so little that, together with
 * painted images, the pages are scans (a stamped "pdf.js" on a scanned page). A tiny document
 * without images ("Hello, world!") is genuine text and passes.
 *
 * @throws PermanentError NO_TEXT_LAYER
 */
export async function assertTextLayer(
  doc: PDFDocumentProxy,
  pages: readonly Page[],
  options: Partial<TextLayerOptions> = {},
): Promise<void> {
  const opts = { ...DEFAULTS, ...options };
  const total = pages.reduce((sum, p) => sum + pageChars(p), 0);
  const count = pages.length;
  const describe = `${total} non-space character${total === 1 ? '' : 's'} on ${count} page${count === 1 ? '' : 's'}`;
  if (total === 0) {
    throw new PermanentError('NO_TEXT_LAYER', `PDF has no text layer (${describe}); it is empty or scanned and would need OCR.`);
  }
  const suspect = total < opts.minChars || total < opts.minCharsPerPage * count;
  if (suspect && (await paintsImages(doc, spread(count, opts.probePages)))) {
    throw new PermanentError(
      'NO_TEXT_LAYER',
      `PDF has essentially no text layer (${describe}) and its pages are images; it looks scanned and would need OCR.`,
    );
  }
}
