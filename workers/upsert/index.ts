/**
 * The upsert stage: enriched.json and the embeddings → Document and Chunk rows, under the
 * document's lock, then the chunks of older versions deleted (upsert.stage.ts builds the rows).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry points: upsertWorker; upsertStage (quarry reindex copies rows with it).
 */

export { upsertStage } from './upsert.stage.ts';
export { upsertWorker } from './upsert.worker.ts';
