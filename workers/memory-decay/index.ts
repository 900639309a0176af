/**
 * The weekly memory-decay job: materialises every chunk's decayed utility and prunes forgotten
 * chunks.
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: memoryDecayWorker.
 */

export { memoryDecayWorker } from './memory-decay.worker.ts';
