export { enrichWorker } from './enrich.worker.ts';
