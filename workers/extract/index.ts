export { extractWorker } from './extract.worker.ts';
