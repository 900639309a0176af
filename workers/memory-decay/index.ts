export { memoryDecayWorker } from './memory-decay.worker.ts';
