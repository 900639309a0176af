export { extractDocument } from './extract-document.ts';
export { DEFAULT_SPARE_SLOTS } from './extraction-pool-options.ts';
export { createExtractionPool } from './extraction-pool.ts';
export type { ExtractHooks, ExtractInput, ExtractLimits } from './limits.ts';
export { withPageSplitting } from './page-parts.ts';
export type { PdfExtractor } from './pdf-extractor.ts';
export { textWarnings } from './text-quality.ts';
