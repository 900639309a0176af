/**
 * The memory-update worker: a validated answer's (or feedback's) outcome into each cited chunk's
 * stats, atomically (memory-update.stage.ts, pure).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: memoryUpdateWorker.
 */

export { memoryUpdateWorker } from './memory-update.worker.ts';
