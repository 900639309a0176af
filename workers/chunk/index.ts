export { chunkWorker } from './chunk.worker.ts';
