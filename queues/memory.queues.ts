import { z } from 'zod';
import { RunId } from '../shared/domain/index.ts';
import { defineQueue } from './define-queue.ts';
import { jobOptions, type QueueClient } from './queue-client.ts';


/** One chunk a validated answer cited, with the query that found it. */
export const MemoryOutcomePayload = z.object({
  chunkId: z.uuid(),
  queryVector: z.array(z.number()).min(1).max(8192),
  intent: z.string().min(1).max(64),
  entities: z.array(z.string().max(200)).max(64).default([]),
});
export type MemoryOutcomePayload = z.infer<typeof MemoryOutcomePayload>;

/** Sent by the agent's memory_updater once the validator approved an answer (seed 000 §6.2). */
export const MemoryUpdatePayload = z.object({
  runId: RunId,
  outcomes: z.array(MemoryOutcomePayload).min(1).max(256),
  /** When the answer was validated; decay is measured from here, not from when the job ran. */
  at: z.iso.datetime({ offset: true }),
});
export type MemoryUpdatePayload = z.infer<typeof MemoryUpdatePayload>;

const Delta = z.object({
  chunkId: z.string(),
  applied: z.boolean(),
  before: z.object({ usefulCount: z.number().int(), utility: z.number() }),
  after: z.object({ usefulCount: z.number().int(), utility: z.number() }),
});

/**
 * `memory-update`: one job per agent run. The job id dedupes a run enqueued twice while the job
 * is kept; the store's per-(run, chunk) markers dedupe a job BullMQ runs again after a crash.
 */
export const memoryUpdateQueue = defineQueue({
  name: 'memory-update',
  payload: MemoryUpdatePayload,
  result: z.object({
    applied: z.number().int(),
    skipped: z.number().int(),
    /** Per chunk, for the run's trace. */
    deltas: z.array(Delta),
  }),
  jobId: (p) => `memory-update-${p.runId}`,
});

/**
 * Payload of a decay run. `requestedAt` pins the decay time (CLI, tests); the weekly
 * scheduler's jobs carry none and decay at the time they run, since a scheduler's template
 * data is fixed when it is upserted.
 */
export const MemoryDecayPayload = z.object({ requestedAt: z.iso.datetime({ offset: true }).optional() });
export type MemoryDecayPayload = z.infer<typeof MemoryDecayPayload>;

/** `memory-decay`: materialise every chunk's utility and prune the forgotten ones. */
export const memoryDecayQueue = defineQueue({
  name: 'memory-decay',
  payload: MemoryDecayPayload,
  result: z.object({ at: z.string(), scanned: z.number().int(), updated: z.number().int(), pruned: z.number().int() }),
  // A decay is cheap to repeat and idempotent at a given time; a failed one is retried a few times.
  policy: { attempts: 3, backoffMs: 60_000, keepCompleted: { count: 100, age: 180 * 24 * 3600 } },
  jobId: (p) => {
    if (!p.requestedAt) throw new TypeError('enqueue memory-decay with requestedAt; only the weekly scheduler omits it');
    return `memory-decay-${Date.parse(p.requestedAt)}`;
  },
});

/** Every memory queue (for status and counts). */
export const MEMORY_QUEUES = [memoryUpdateQueue, memoryDecayQueue] as const;
/** Memory worker names as `quarry workers start --only memory-update,memory-decay` takes them (= their queue names). */
export const MEMORY_STAGE_NAMES = ['memory-update', 'memory-decay'] as const;
/** One of MEMORY_STAGE_NAMES. */
export type MemoryStageName = (typeof MEMORY_STAGE_NAMES)[number];

/** The weekly decay scheduler's id: one per queue, whoever upserts it. */
export const MEMORY_DECAY_SCHEDULER_ID = 'memory-decay-weekly';
/** Sundays 03:00 UTC: a quiet hour, and a fixed zone so every pod agrees. */
export const MEMORY_DECAY_PATTERN = '0 3 * * 0';

/**
 * Creates or updates the weekly decay scheduler. Idempotent: BullMQ keys schedulers by id, so
 * every worker start may call it and there is still one scheduler with one pending job.
 * @defaultValue pattern {@link MEMORY_DECAY_PATTERN} (Sundays 03:00 UTC)
 * @throws whatever BullMQ throws when Redis refuses the write (the caller logs it; the next start retries).
 */
export async function ensureMemoryDecaySchedule(queues: QueueClient, pattern = MEMORY_DECAY_PATTERN): Promise<void> {
  const { jobId: _omit, ...opts } = jobOptions(memoryDecayQueue, MEMORY_DECAY_SCHEDULER_ID);
  await queues
    .queue(memoryDecayQueue)
    .upsertJobScheduler(MEMORY_DECAY_SCHEDULER_ID, { pattern, tz: 'UTC' }, { name: memoryDecayQueue.name, data: {}, opts });
}
