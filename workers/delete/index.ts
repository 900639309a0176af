/**
 * The delete worker: a document whose source is gone loses its chunks, its Document row, its
 * artifacts, and its status turns deleted.
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: deleteWorker.
 */

export { deleteWorker } from './delete.worker.ts';
