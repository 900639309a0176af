/**
 * The enrich stage: source.json, extracted.json and chunks.json → enriched.json (entities,
 * language, validity dates, the document's profile; enrich.stage.ts, pure).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: enrichWorker.
 */

export { enrichWorker } from './enrich.worker.ts';
