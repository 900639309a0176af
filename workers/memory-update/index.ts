export { memoryUpdateWorker } from './memory-update.worker.ts';
