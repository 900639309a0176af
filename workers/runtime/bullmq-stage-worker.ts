import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { ingestStageName, isSuperseded, SUPERSEDED, type QueueDefinition, type TrackedDocument } from '../../queues/define-queue.ts';
import { createRedis } from '../../queues/redis-connection.ts';
import { queueTelemetry } from '../../queues/telemetry.ts';
import { decodeFailure, describeError, encodeFailure, isQuarryError, PermanentError } from '../../shared/errors.ts';
import { throttledErrorLog } from '../../shared/redis/index.ts';
import { ATTR, withSpan, type Logger } from '../../shared/telemetry/index.ts';
import { quarryMetrics, type QuarryMetrics } from '../../shared/metrics/index.ts';
import type { DocumentAtStage, DocumentLifecycle, StageDone, StatusFields } from './document-lifecycle.ts';
import { pickPorts, type PortName, type Ports } from './ports.ts';
import type { StageWorkerDefinition } from './stage-worker.ts';

/** A job cancelled with this reason goes back to the queue instead of failing. */
export const SHUTDOWN_REASON = 'shutdown';

/** One job as it goes from phase to phase. */
interface RunningJob {
  readonly job: Job;
  readonly token: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly payload: unknown;
  /** The document the job advances, when its queue tracks one. */
  readonly doc: TrackedDocument | null;
  readonly log: Logger;
}

/** The status record's stage name of a queue's jobs. */
const stageOf = (queue: QueueDefinition): string => queue.tracks?.stage ?? ingestStageName(queue.name);

/** The `docId` of any payload that has one, for log lines (a deletion's, too). */
function docIdOf(payload: unknown): string | undefined {
  return typeof payload === 'object' && payload !== null && 'docId' in payload && typeof payload.docId === 'string' ? payload.docId : undefined;
}

/**
 * One stage's bullmq Worker: the BullMQ side of the runtime (ARCHITECTURE §1). A job goes through
 * named phases: {@link process} (payload, span), `run` (is it still its document's work?), the
 * handler, then {@link complete} (result checked) and {@link handOver} (the next stage), or
 * {@link fail} (the error mapped for BullMQ, or the job returned to the queue at shutdown). Every
 * status write goes through the {@link DocumentLifecycle}; the handler sees only the ports its
 * definition declared.
 */
export class BullmqStageWorker<N extends PortName = PortName> {
  private readonly queue: QueueDefinition;
  private readonly stage: string;
  private readonly log: Logger;
  private readonly metrics: QuarryMetrics;
  /** The ports the definition declared, and only those. */
  private readonly stagePorts: Pick<Ports, N>;
  private readonly connection: Redis;
  private readonly worker: Worker;

  constructor(
    private readonly def: StageWorkerDefinition<z.ZodType, z.ZodType, N>,
    private readonly ports: Ports,
    private readonly lifecycle: DocumentLifecycle,
    log: Logger,
  ) {
    this.queue = def.queue;
    this.stage = stageOf(def.queue);
    this.log = log.child({ queue: def.queue.name });
    this.metrics = quarryMetrics();
    this.stagePorts = pickPorts(ports, def.needs);
    const { config } = ports;
    this.connection = createRedis(config.redisUrl);
    this.worker = new Worker(def.queue.name, (job, token, signal) => this.process(job, token, signal), {
      connection: this.connection,
      prefix: config.prefix,
      concurrency: def.concurrency?.(config.worker.concurrency) ?? config.worker.concurrency,
      lockDuration: config.worker.lockMs,
      stalledInterval: Math.max(1000, Math.floor(config.worker.lockMs / 2)),
      maxStalledCount: 2,
      autorun: true,
      // Trace context travels in the job: one trace follows a document through every stage.
      telemetry: queueTelemetry(),
    });
    // Rate-limited: during a Redis outage the blocking connection fails every reconnect attempt.
    this.worker.on('error', throttledErrorLog(this.log, 'worker error'));
    this.worker.on('failed', (job) => this.failed(job));
  }

  /** BullMQ's processor: the payload validated, its document found, the run inside a span. */
  async process(job: Job, token?: string, signal?: AbortSignal): Promise<unknown> {
    const parsed = this.queue.payload.safeParse(job.data);
    if (!parsed.success) {
      const reason = encodeFailure({ code: 'INVALID_PAYLOAD', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      this.log.error('invalid payload', { jobId: job.id, error: reason });
      throw new UnrecoverableError(reason);
    }
    const payload = parsed.data;
    const doc = this.queue.tracks?.document(payload) ?? null;
    const log = this.log.child({ jobId: job.id, docId: doc?.docId ?? docIdOf(payload) });
    const attributes = { [ATTR.stage]: this.stage, ...(doc ? { [ATTR.docId]: doc.docId, [ATTR.version]: doc.version } : {}) };
    return withSpan(`stage ${this.queue.name}`, attributes, () => this.run({ job, token, signal, payload, doc, log }));
  }

  /** Runs the handler when the job is still its document's current work; otherwise completes superseded. */
  private async run(r: RunningJob): Promise<unknown> {
    // One round trip both checks the job is the document's current work and marks it running.
    // Otherwise a newer version or a deletion took over, or this is a job delivered again after
    // its work was handed on (its worker died between enqueueing the next stage and completing
    // the job): running it would move the document back to a stage whose next job already ran,
    // where it would wait for nothing.
    if (r.doc && !(await this.lifecycle.begin(this.at(r.doc)))) {
      await this.resumeHandOver(r.doc, r.log);
      return SUPERSEDED;
    }
    const started = performance.now();
    let recorded: StatusFields = {};
    try {
      const result = await this.def.handler(r.payload, {
        ...this.stagePorts,
        recordStatus: (fields) => void (recorded = { ...recorded, ...fields }),
        log: r.log,
        signal: r.signal ?? new AbortController().signal,
        attemptsMade: r.job.attemptsMade,
        progress: async (pct) => {
          await r.job.updateProgress(pct);
          if (r.doc) await this.lifecycle.progress(r.doc, pct);
        },
      });
      return await this.complete(r, result, started, recorded);
    } catch (err) {
      return await this.fail(r, err);
    }
  }

  /** The handler's result, checked against the queue's schema; then the document handed on, or its last stage finished. */
  private async complete(r: RunningJob, result: unknown, started: number, recorded: StatusFields): Promise<unknown> {
    const checked = this.queue.result.safeParse(result);
    if (!checked.success) throw new PermanentError('INVALID_RESULT', `${this.queue.name} returned an invalid result: ${checked.error.message}`);
    const done: StageDone = { recorded, ms: performance.now() - started };
    this.metrics.stageDuration.observe({ queue: this.queue.name }, done.ms / 1000);
    const { next } = this.queue;
    // A handler that found its work superseded (upsert, under the document's lock) says so in its
    // result, which its schema admits: nothing is handed on.
    if (r.doc && next && !isSuperseded(checked.data)) await this.handOver(r.doc, next, done, r.log);
    else if (r.doc) await this.lifecycle.finish(this.at(r.doc), done);
    r.log.info('stage done', { stage: this.stage, ms: Math.round(done.ms) });
    return checked.data;
  }

  /**
   * Records the stage done and the document queued at `next`, then enqueues `next` under its
   * deterministic id. Only a registration still current hands on: a stale job (its document
   * re-registered, deleted, or lost with Redis's data while it ran) must not start the next stage.
   */
  private async handOver(doc: TrackedDocument, next: QueueDefinition, done: StageDone, log: Logger): Promise<void> {
    if (await this.lifecycle.handOver(this.at(doc), stageOf(next), done)) await this.ports.queues.enqueue(next, doc);
    else log.info('superseded while running: next stage not enqueued');
  }

  /**
   * A job that may not run: superseded, or delivered again after its stage was handed on. Its
   * worker may have died between recording the hand-over and enqueueing the next stage: when the
   * document still waits at the next stage, enqueue that stage (a no-op under its deterministic id
   * when the job is there), so the document does not wait for the reconciler.
   */
  private async resumeHandOver(doc: TrackedDocument, log: Logger): Promise<void> {
    const { next } = this.queue;
    if (next && (await this.lifecycle.waitsAt(doc, stageOf(next)))) {
      await this.ports.queues.enqueue(next, doc);
      log.info('delivered again after its hand-over was recorded: next stage enqueued (again)');
    } else {
      log.info('superseded: a newer version or a deletion took over, or this stage was already handed on');
    }
  }

  /**
   * The handler (or its completion) threw: a job cancelled at shutdown goes back to the queue;
   * otherwise the attempt is recorded and the error handed to BullMQ as `CODE: message`
   * (permanent → UnrecoverableError, retryable → retried with the queue's backoff).
   */
  private async fail(r: RunningJob, err: unknown): Promise<never> {
    if (r.signal?.aborted && r.signal.reason === SHUTDOWN_REASON && r.token) return this.returnToQueue(r, r.token);
    const failure = describeError(err);
    const permanent = err instanceof UnrecoverableError || (isQuarryError(err) && !err.retryable);
    const final = permanent || r.job.attemptsMade + 1 >= this.queue.policy.attempts;
    r.log.warn('stage failed', { stage: this.stage, code: failure.code, error: failure.message, permanent, attempt: r.job.attemptsMade + 1 });
    this.metrics.jobFailures.inc({ queue: this.queue.name, code: failure.code });
    if (r.doc) await this.lifecycle.attemptFailed(this.at(r.doc), failure, final);
    if (permanent) throw new UnrecoverableError(encodeFailure(failure));
    // The failed reason carries the code, so whoever reads the failed job later (the
    // reconciler) records the same error as this worker.
    throw new Error(encodeFailure(failure), { cause: err });
  }

  /**
   * Cancelled because this process is shutting down: the job goes back to waiting for another
   * worker, neither a failed attempt nor a stall, and the document stays queued.
   */
  private async returnToQueue(r: RunningJob, token: string): Promise<never> {
    await r.job.moveToWait(token);
    if (r.doc) await this.lifecycle.requeue(this.at(r.doc));
    r.log.info('stage returned to the queue at shutdown', { stage: this.stage });
    throw new WaitingError();
  }

  /**
   * Every way a job ends failed passes here, including those the processor never saw: a job
   * failed for exceeding the stall limit (its worker killed again and again) is failed by the
   * next worker that picks it up. Retries are not final: BullMQ sets finishedOn only then.
   */
  private failed(job: Job | undefined): void {
    const { tracks } = this.queue;
    if (!job?.finishedOn || !tracks) return;
    const parsed = this.queue.payload.safeParse(job.data);
    if (!parsed.success) return;
    const doc = tracks.document(parsed.data);
    const failure = decodeFailure(job.failedReason);
    this.lifecycle
      .fail(this.at(doc), failure)
      .then((applied) => {
        if (applied) this.log.warn('document failed', { jobId: job.id, docId: doc.docId, stage: this.stage, code: failure.code });
      })
      .catch((e: unknown) => this.log.error('could not record a failed job', { jobId: job.id, ...describeError(e) }));
  }

  private at(doc: TrackedDocument): DocumentAtStage {
    return { ...doc, stage: this.stage };
  }

  /** True while the bullmq Worker runs. */
  isRunning(): boolean {
    return this.worker.isRunning();
  }

  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void> {
    return this.worker.close();
  }

  /** Aborts every running job's signal with `reason` (SHUTDOWN_REASON puts them back in the queue). */
  cancelAll(reason: string): void {
    this.worker.cancelAllJobs(reason);
  }

  /** Closes the Worker's own Redis connection (after {@link close}). */
  async disconnect(): Promise<void> {
    await this.connection.quit().catch(() => undefined);
  }
}
