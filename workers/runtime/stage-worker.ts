import type { z } from 'zod';
import type { QueueDefinition } from '../../queues/define-queue.ts';
import type { StageUpdate } from '../../shared/status/status-store.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import type { Ports } from './ports.ts';

/** What a stage handler gets besides its payload: ports, config, a logger, progress, cancellation. */
export interface StageContext extends Ports {
  log: Logger;
  signal: AbortSignal;
  /** Reports 0–100 progress within this stage (job progress and the document's status record). */
  progress(pct: number): Promise<void>;
  /** How many times this job has been tried before (0 on the first try). */
  attemptsMade: number;
  /**
   * Fields for the document's status record (page count, warnings, coverage), written with the
   * stage's hand-over in the same atomic update: no extra round trip, and nothing recorded for a
   * registration that is no longer current.
   */
  recordStatus(fields: StatusFields): void;
}

/** What a stage may record on its document's status record. */
export type StatusFields = Pick<StageUpdate, 'pageCount' | 'chunkCount' | 'warnings' | 'profile' | 'coverage'>;

export type StageHandler<P extends z.ZodType, R extends z.ZodType> = (
  payload: z.infer<P>,
  ctx: StageContext,
) => Promise<z.infer<R>>;

export interface StageWorkerDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly queue: QueueDefinition<P, R>;
  readonly handler: StageHandler<P, R>;
  /** Jobs run at once per process, from the configured WORKER_CONCURRENCY (the default is that value). */
  readonly concurrency?: (configured: number) => number;
  /**
   * Run once when the worker starts (e.g. upserting a job scheduler); must be idempotent, since
   * every process running this worker calls it.
   */
  readonly onStart?: (ports: Ports) => Promise<void>;
}

/** Pairs a queue with its processor; `workers/runtime` turns it into a bullmq Worker. */
export function defineStageWorker<P extends z.ZodType, R extends z.ZodType>(
  queue: QueueDefinition<P, R>,
  handler: StageHandler<P, R>,
  opts: { concurrency?: (configured: number) => number; onStart?: (ports: Ports) => Promise<void> } = {},
): StageWorkerDefinition<P, R> {
  return { queue, handler, concurrency: opts.concurrency, onStart: opts.onStart };
}
