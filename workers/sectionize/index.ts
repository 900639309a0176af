export { sectionizeWorker } from './sectionize.worker.ts';
