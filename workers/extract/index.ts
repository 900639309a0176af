/**
 * The extract stage: source.pdf → extracted.json (extract.stage.ts, pure, through an extraction
 * pool when the bytes are untrusted; the handler reads them through the PdfExtractor port).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: extractWorker.
 */

export { extractWorker } from './extract.worker.ts';
