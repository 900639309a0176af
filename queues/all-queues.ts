import { agentRunQueue } from './agent.queues.ts';
import type { QueueDefinition } from './define-queue.ts';
import { facetRebuildQueue } from './facets.queues.ts';
import { INGEST_QUEUES } from './ingest.queues.ts';
import { MEMORY_QUEUES } from './memory.queues.ts';

/** Every queue Quarry defines: what metrics count and the queue UI shows. */
export const ALL_QUEUES: readonly QueueDefinition[] = [...INGEST_QUEUES, facetRebuildQueue, ...MEMORY_QUEUES, agentRunQueue];
