import type { StageName } from '../queues/ingest.queues.ts';
import { chunkWorker } from './chunk/chunk.worker.ts';
import { deleteWorker } from './delete/delete.worker.ts';
import { embedWorker } from './embed/embed.worker.ts';
import { enrichWorker } from './enrich/enrich.worker.ts';
import { extractWorker } from './extract/extract.worker.ts';
import type { StageWorkerDefinition } from './runtime/stage-worker.ts';
import { sectionizeWorker } from './sectionize/sectionize.worker.ts';
import { upsertWorker } from './upsert/upsert.worker.ts';

/** Every ingest stage worker by stage name, in pipeline order. */
export const INGEST_WORKERS: Record<StageName, StageWorkerDefinition> = {
  extract: extractWorker,
  sectionize: sectionizeWorker,
  chunk: chunkWorker,
  enrich: enrichWorker,
  embed: embedWorker,
  upsert: upsertWorker,
  delete: deleteWorker,
};
