import { queueTelemetry } from './telemetry.ts';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { QueueDefinition } from './define-queue.ts';

/** BullMQ job options from a queue's policy: retries with exponential backoff, bounded retention. */
export function jobOptions(def: QueueDefinition, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: def.policy.attempts,
    backoff: { type: 'exponential', delay: def.policy.backoffMs },
    removeOnComplete: def.policy.keepCompleted,
    removeOnFail: def.policy.keepFailed,
  };
}

export type JobCounts = Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | 'prioritized', number>;

/** Producer side of every queue: validated enqueues with deterministic ids, and counts. */
export interface QueueClient {
  /** Validates the payload and adds it under its deterministic id (a duplicate add is a no-op). */
  enqueue<P extends z.ZodType>(def: QueueDefinition<P>, payload: z.infer<P>): Promise<string>;
  counts(def: QueueDefinition): Promise<JobCounts>;
  queue(def: QueueDefinition): Queue;
  close(): Promise<void>;
}

export function createQueueClient(connection: Redis, prefix: string): QueueClient {
  const queues = new Map<string, Queue>();
  const queueOf = (def: QueueDefinition) => {
    let q = queues.get(def.name);
    if (!q) {
      q = new Queue(def.name, { connection, prefix, telemetry: queueTelemetry() });
      queues.set(def.name, q);
    }
    return q;
  };
  return {
    async enqueue(def, payload) {
      const data = def.payload.parse(payload);
      const jobId = def.jobId(data);
      await queueOf(def).add(def.name, data, jobOptions(def, jobId));
      return jobId;
    },
    async counts(def) {
      const c = await queueOf(def).getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
      return {
        waiting: c.waiting ?? 0,
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        completed: c.completed ?? 0,
        failed: c.failed ?? 0,
        prioritized: c.prioritized ?? 0,
      };
    },
    queue: queueOf,
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      queues.clear();
    },
  };
}
