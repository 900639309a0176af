import { STAGE_NAMES, type StageName } from '../queues/ingest.queues.ts';
import { MEMORY_STAGE_NAMES, type MemoryStageName } from '../queues/memory.queues.ts';
import { agentWorker } from './agent/index.ts';
import { chunkWorker } from './chunk/index.ts';
import { deleteWorker } from './delete/index.ts';
import { embedWorker } from './embed/index.ts';
import { enrichWorker } from './enrich/index.ts';
import { extractWorker } from './extract/index.ts';
import { facetRebuildWorker } from './facet-rebuild/index.ts';
import { memoryDecayWorker } from './memory-decay/index.ts';
import { memoryUpdateWorker } from './memory-update/index.ts';
import type { StageWorkerDefinition } from './runtime/index.ts';
import { sectionizeWorker } from './sectionize/index.ts';
import { upsertWorker } from './upsert/index.ts';

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
