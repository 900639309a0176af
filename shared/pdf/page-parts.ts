import type { ExtractedDocument, Page } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';
import { finishPages } from './extract-document.ts';
import type { ExtractCallOptions, PdfExtractor } from './pdf-extractor.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';
import { textLayerSuspect } from './text-layer.ts';

/**
 * Puts the parts of a split extraction back together (in part order) and finishes the whole as an
 * unsplit extraction would. Pure.
 *
 * @throws PermanentError CORRUPT_PDF when no page could be read; GARBLED_TEXT (see finishPages).
 */
export function joinParts(parts: readonly ExtractedDocument[]): ExtractedDocument {
  const [first] = parts;
  if (!first) throw new RangeError('joinParts needs at least one part');
  const raw: Page[] = parts.flatMap((p) => p.pages);
  if (raw.length !== first.pageCount) throw new PermanentError('INTERNAL', `split extraction returned ${raw.length} of ${first.pageCount} pages`);
  // Pages that could not be read come back with no size and no lines (extract-document.ts).
  if (raw.every((p) => p.width === 0 && p.height === 0 && p.lines.length === 0)) {
    throw new PermanentError('CORRUPT_PDF', 'No page of the PDF could be read');
  }
  const { pages, strippedLines, runningChars } = finishPages(raw);
  return { pageCount: first.pageCount, pages, outline: first.outline, info: first.info, strippedLines, runningChars };
}

/** Options of {@link withPageSplitting}. */
export interface PageSplittingOptions {
  /** Files of at least this many bytes are split. */
  minBytes: number;
  /** Parts a large file is split into (the pool's regular children). */
  parts: number;
}

/**
 * Reads a large PDF's pages in `parts` children at once, instead of one child reading them all:
 * each child opens the file and reads its own page range (pageRange), the first also the outline
 * and the info, and the parts are joined and finished here (joinParts) — the same document an
 * unsplit extraction gives, in about 1/parts of the wall time when children are free. A file
 * under `minBytes` (or with too few pages, see MIN_PAGES_PER_PART) goes through unsplit. When the
 * joined text is too thin to judge without the document (an empty or scanned PDF), the file is
 * extracted again unsplit, so its outcome (NO_TEXT_LAYER, UNSUPPORTED_FEATURE) is exactly the
 * unsplit one. The first part to fail cancels the others and its error is the call's.
 */
export function withPageSplitting(extractor: PdfExtractor, options: PageSplittingOptions): PdfExtractor {
  const parts = Math.max(1, Math.floor(options.parts));
  async function extractSplit(input: ExtractInput, limits: ExtractLimits, call: ExtractCallOptions): Promise<ExtractedDocument> {
    const cancel = new AbortController();
    const onAbort = () => cancel.abort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const results = await Promise.all(
        Array.from({ length: parts }, (_, index) =>
          extractor.extract({ ...input, part: { index, of: parts } }, limits, { signal: cancel.signal }).catch((err: unknown) => {
            cancel.abort();
            throw err;
          }),
        ),
      );
      const pages = results.flatMap((r) => r.pages);
      if (textLayerSuspect(pages)) return extractor.extract(input, limits, call);
      return joinParts(results);
    } finally {
      call.signal?.removeEventListener('abort', onAbort);
    }
  }
  return {
    extract(input, limits, call = {}) {
      if (parts < 2 || input.bytes.byteLength < options.minBytes || input.part) return extractor.extract(input, limits, call);
      return extractSplit(input, limits, call);
    },
    // Every part's child ready, so a first large file is not read by one child while the other starts.
    warm: (children = parts) => extractor.warm(children),
    close: () => extractor.close(),
  };
}
