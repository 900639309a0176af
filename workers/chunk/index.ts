/**
 * The chunk stage: sections.json and source.json → chunks.json (chunk.stage.ts, pure; the
 * handler in chunk.worker.ts reads and writes the artifacts).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: chunkWorker.
 */

export { chunkWorker } from './chunk.worker.ts';
