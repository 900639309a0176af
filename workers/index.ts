import type { StageName } from '../queues/ingest.queues.ts';
import { STAGE_NAMES } from '../queues/ingest.queues.ts';
import { MEMORY_STAGE_NAMES, type MemoryStageName } from '../queues/memory.queues.ts';
import { agentWorker } from './agent/agent.worker.ts';
import { chunkWorker } from './chunk/chunk.worker.ts';
import { deleteWorker } from './delete/delete.worker.ts';
import { embedWorker } from './embed/embed.worker.ts';
import { enrichWorker } from './enrich/enrich.worker.ts';
import { extractWorker } from './extract/extract.worker.ts';
import { facetRebuildWorker } from './facet-rebuild/facet-rebuild.worker.ts';
import { memoryDecayWorker } from './memory-decay/memory-decay.worker.ts';
import { memoryUpdateWorker } from './memory-update/memory-update.worker.ts';
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

/** The chunk-memory workers: validated outcomes in, weekly decay. */
export const MEMORY_WORKERS: Record<MemoryStageName, StageWorkerDefinition> = {
  'memory-update': memoryUpdateWorker,
  'memory-decay': memoryDecayWorker,
};

/** The facet-value vector rebuild, asked for (debounced) by every upsert. */
export const FACET_WORKERS = { 'facet-rebuild': facetRebuildWorker } as const satisfies Record<string, StageWorkerDefinition>;

/** Every worker name, as `quarry workers start --only` takes them. */
export const WORKER_NAMES = [...STAGE_NAMES, ...MEMORY_STAGE_NAMES, 'facet-rebuild', 'agent'] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

/** Every worker by name: what `quarry dev` and `quarry workers start` run. */
export const ALL_WORKERS: Record<WorkerName, StageWorkerDefinition> = { ...INGEST_WORKERS, ...MEMORY_WORKERS, ...FACET_WORKERS, agent: agentWorker };
