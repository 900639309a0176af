/**
 * The embed stage: enriched.json → embeddings.json and embeddings.bin, through the embedding
 * cache (embed.stage.ts, pure; embed.worker.ts, the artifacts).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: embedWorker.
 */

export { embedWorker } from './embed.worker.ts';
