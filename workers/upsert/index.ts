export { upsertStage } from './upsert.stage.ts';
export { upsertWorker } from './upsert.worker.ts';
