import type { z } from 'zod';
import type { QueueDefinition } from '../../queues/define-queue.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import type { StatusFields } from './document-lifecycle.ts';
import type { PortName, Ports } from './ports.ts';

export type { StatusFields } from './document-lifecycle.ts';

/** What the runtime gives every job besides ports: a logger, cancellation, progress, its attempt. */
export interface JobContext {
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

/** What a stage handler gets besides its payload: the ports it declared it needs, and its job's context. */
export type StageContext<N extends PortName = PortName> = Pick<Ports, N> & JobContext;

export type StageHandler<P extends z.ZodType, R extends z.ZodType, N extends PortName = PortName> = (
  payload: z.infer<P>,
  ctx: StageContext<N>,
) => Promise<z.infer<R>>;

/** How a stage runs, besides its handler. */
export interface StageOptions<N extends PortName> {
  /**
   * The ports the handler and `onStart` use: the runtime hands them these and no others, so a
   * stage says what it touches (`memory-update` needs `['memory']`; extraction `['config',
   * 'artifacts', 'extractor']`).
   */
  readonly needs: readonly N[];
  /** Jobs run at once per process, from the configured WORKER_CONCURRENCY (the default is that value). */
  readonly concurrency?: (configured: number) => number;
  /**
   * Run once when the worker starts (e.g. upserting a job scheduler); must be idempotent, since
   * every process running this worker calls it.
   */
  readonly onStart?: (ports: Pick<Ports, N>) => Promise<void>;
}

export interface StageWorkerDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType, N extends PortName = PortName>
  extends StageOptions<N> {
  readonly queue: QueueDefinition<P, R>;
  readonly handler: StageHandler<P, R, N>;
}

/**
 * Pairs a queue with its processor and the ports it needs; `workers/runtime` turns it into a
 * bullmq Worker:
 *
 * ```ts
 * export const memoryUpdateWorker = defineStageWorker(memoryUpdateQueue, { needs: ['memory'] }, async (payload, { memory, log }) => …);
 * ```
 */
export function defineStageWorker<P extends z.ZodType, R extends z.ZodType, const N extends PortName = never>(
  queue: QueueDefinition<P, R>,
  options: StageOptions<N>,
  handler: StageHandler<P, R, N>,
): StageWorkerDefinition<P, R, N> {
  return { queue, handler, needs: options.needs, concurrency: options.concurrency, onStart: options.onStart };
}
