/**
 * PDF extraction: text per page with line positions, the outline and the info, through unpdf
 * (pdf.js) in pooled child processes with memory and CPU limits, large files split by page range.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: the PdfExtractor port, createExtractionPool and withPageSplitting
 * (workers/compose.ts), extractDocument (the extract stage), textWarnings.
 * extract-child-entry.ts is a child process's entry, started by path, not imported.
 */

export { extractDocument } from './extract-document.ts';
export { DEFAULT_SPARE_SLOTS } from './extraction-pool-options.ts';
export { createExtractionPool } from './extraction-pool.ts';
export type { ExtractHooks, ExtractInput, ExtractLimits } from './limits.ts';
export { withPageSplitting } from './page-parts.ts';
export type { PdfExtractor } from './pdf-extractor.ts';
export { textWarnings } from './text-quality.ts';
