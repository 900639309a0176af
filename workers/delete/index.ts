export { deleteWorker } from './delete.worker.ts';
