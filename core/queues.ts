/**
 * The queues as the faces see them: the client that enqueues and counts (and hands out a
 * definition's BullMQ Queue, for QueueEvents and the queue UI), the Redis connection BullMQ wants,
 * and the definitions a face names. A face imports these from here, never from queues/ (the
 * dependency rules, tests/unit/architecture.test.ts); building a Worker stays in workers/runtime.
 */
export { createQueueClient, type JobCounts, type QueueClient } from '../queues/queue-client.ts';
export { createRedis } from '../queues/redis-connection.ts';
export type { QueueDefinition } from '../queues/define-queue.ts';
export { ALL_QUEUES } from '../queues/all-queues.ts';
export { INGEST_QUEUES, STAGE_NAMES, type StageName } from '../queues/ingest.queues.ts';
export { agentRunQueue } from '../queues/agent.queues.ts';
export { FacetRebuildTarget, facetRebuildQueue } from '../queues/facets.queues.ts';
