import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { queueTelemetry } from '../../queues/telemetry.ts';
import { IngestPayload } from '../../queues/define-queue.ts';
import { describeError, isQuarryError, PermanentError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import { quarryMetrics } from '../../shared/telemetry/metrics.ts';
import { ATTR, withSpan } from '../../shared/telemetry/tracing.ts';
import { codedReason, failureOfReason, SHUTDOWN_REASON } from './job-failure.ts';
import { applyWorkerNice } from './nice.ts';
import { createRedis, type Ports } from './ports.ts';
import { throttledErrorLog } from '../../shared/redis/connection-log.ts';
import type { StatusFields, StageWorkerDefinition } from './stage-worker.ts';

export interface WorkerGroup {
  readonly names: string[];
  /**
   * Settles once every worker's `onStart` hook has run; rejects with the first failure (each is
   * also logged, so not awaiting it loses nothing).
   */
  readonly ready: Promise<void>;
  /** True while every worker is running (for readiness). */
  isRunning(): boolean;
  /**
   * Stops taking jobs and waits for running ones up to `graceMs`; jobs still running then are
   * cancelled so they are retried elsewhere rather than left to stall.
   */
  close(graceMs?: number): Promise<void>;
}

/** The status record's stage name of a queue: `ingest-chunk` → `chunk`. */
const stageName = (queueName: string) => queueName.replace(/^ingest-/, '');

/** A superseded job completes with this value and does not enqueue the next stage. */
export const SUPERSEDED = { superseded: true } as const;

/**
 * Builds one bullmq Worker per definition. This is the only place that does: it validates
 * payloads and results, records status, maps PermanentError → UnrecoverableError, reports
 * progress and enqueues the next stage under its deterministic id.
 */
export function startWorkers(defs: readonly StageWorkerDefinition[], ports: Ports, log: Logger): WorkerGroup {
  const { config } = ports;
  // Before any worker starts a thread or a child: they inherit it (WORKER_NICE, 0 by default).
  applyWorkerNice(config.worker.nice, log);
  const metrics = quarryMetrics();
  const connections: ReturnType<typeof createRedis>[] = [];
  const workers = defs.map((def) => {
    const { queue } = def;
    const stage = stageName(queue.name);
    const wlog = log.child({ queue: queue.name });

    const processor = async (job: Job, token?: string, signal?: AbortSignal) => {
      const parsed = queue.payload.safeParse(job.data);
      if (!parsed.success) {
        const msg = `INVALID_PAYLOAD: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
        wlog.error('invalid payload', { jobId: job.id, error: msg });
        throw new UnrecoverableError(msg);
      }
      const payload = parsed.data;
      const ingest = IngestPayload.safeParse(payload);
      const track = ingest.success ? ingest.data : null;
      const jlog = wlog.child({ jobId: job.id, docId: (payload as { docId?: string }).docId });

      const attributes = { [ATTR.stage]: stage, ...(track ? { [ATTR.docId]: track.docId, [ATTR.version]: track.version } : {}) };
      return withSpan(`stage ${queue.name}`, attributes, () => run(job, payload, track, jlog, signal, token));
    };

    /**
     * A job that may not run: superseded, or delivered again after its stage was handed on. Its
     * worker may have died between recording the hand-over and enqueueing the next stage: when
     * the document still waits at the next stage, enqueue that stage (a no-op under its
     * deterministic id when the job is there), so the document does not wait for the reconciler.
     */
    const resumeHandOver = async (track: IngestPayload, jlog: Logger): Promise<void> => {
      const next = queue.next;
      const s = next ? await ports.status.get(track.docId) : null;
      if (next && s && s.version === track.version && s.gen === track.gen && s.state === 'queued' && s.stage === stageName(next.name)) {
        await ports.queues.enqueue(next, track);
        jlog.info('delivered again after its hand-over was recorded: next stage enqueued (again)');
      } else {
        jlog.info('superseded: a newer version or a deletion took over, or this stage was already handed on');
      }
    };

    const run = async (job: Job, payload: unknown, track: IngestPayload | null, jlog: Logger, signal: AbortSignal | undefined, token: string | undefined) => {
      // One round trip both checks the job is the document's current work and marks it running:
      // the update applies only to the current (version, gen) while it waits at or runs this
      // stage. Otherwise a newer version or a deletion took over, or this is a job delivered again
      // after its work was handed on (its worker died between enqueueing the next stage and
      // completing the job): running it would move the document back to a stage whose next job
      // already ran, where it would wait for nothing.
      const atThisStage = { atStage: stage };
      if (track && !(await ports.status.update(track.docId, track.version, track.gen, { state: 'running', stage, progress: 0 }, atThisStage))) {
        await resumeHandOver(track, jlog);
        return SUPERSEDED;
      }

      const started = performance.now();
      let recorded: StatusFields = {};
      try {
        const result = await def.handler(payload, {
          ...ports,
          recordStatus: (fields) => void (recorded = { ...recorded, ...fields }),
          log: jlog,
          signal: signal ?? new AbortController().signal,
          attemptsMade: job.attemptsMade,
          progress: async (pct) => {
            await job.updateProgress(pct);
            if (track) await ports.status.update(track.docId, track.version, track.gen, { progress: pct });
          },
        });
        const checked = queue.result.safeParse(result);
        if (!checked.success) throw new PermanentError('INVALID_RESULT', `${queue.name} returned an invalid result: ${checked.error.message}`);
        const ms = performance.now() - started;
        metrics.stageDuration.observe({ queue: queue.name }, ms / 1000);
        const superseded = typeof checked.data === 'object' && checked.data !== null && (checked.data as { superseded?: boolean }).superseded === true;
        if (queue.next && track && !superseded) {
          // Only a registration still current hands on: a stale job (its document re-registered,
          // deleted, or lost with Redis's data while it ran) must not start the next stage. The
          // stage's timing rides on the same update (one round trip per hand-over, not two).
          const current = await ports.status.update(
            track.docId,
            track.version,
            track.gen,
            { ...recorded, timing: { stage, ms }, stage: stageName(queue.next.name), state: 'queued', progress: 0 },
            atThisStage,
          );
          if (current) await ports.queues.enqueue(queue.next, track);
          else jlog.info('superseded while running: next stage not enqueued');
        } else if (track) {
          await ports.status.update(track.docId, track.version, track.gen, { ...recorded, timing: { stage, ms }, progress: 100 });
        }
        jlog.info('stage done', { stage, ms: Math.round(ms) });
        return checked.data;
      } catch (err) {
        if (signal?.aborted && signal.reason === SHUTDOWN_REASON && token) {
          // Cancelled because this process is shutting down: the job goes back to waiting for
          // another worker, neither a failed attempt nor a stall, and the document stays queued.
          await job.moveToWait(token);
          if (track) await ports.status.update(track.docId, track.version, track.gen, { state: 'queued', progress: 0 }, atThisStage);
          jlog.info('stage returned to the queue at shutdown', { stage });
          throw new WaitingError();
        }
        const { code, message } = describeError(err);
        const permanent = err instanceof UnrecoverableError || (isQuarryError(err) && !err.retryable);
        const lastTry = permanent || job.attemptsMade + 1 >= queue.policy.attempts;
        jlog.warn('stage failed', { stage, code, error: message, permanent, attempt: job.attemptsMade + 1 });
        metrics.jobFailures.inc({ queue: queue.name, code });
        if (track) {
          await ports.status.update(
            track.docId,
            track.version,
            track.gen,
            { error: { code, message }, ...(lastTry ? { state: 'failed' as const } : {}) },
            atThisStage,
          );
        }
        if (permanent) throw new UnrecoverableError(codedReason(code, message));
        // The failed reason carries the code, so whoever reads the failed job later (the
        // reconciler) records the same error as this worker.
        throw new Error(codedReason(code, message), { cause: err });
      }
    };

    const connection = createRedis(config.redisUrl);
    connections.push(connection);
    const worker = new Worker(queue.name, processor, {
      connection,
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
    worker.on('error', throttledErrorLog(wlog, 'worker error'));
    // Every way a job ends failed passes here, including those the processor never saw: a job
    // failed for exceeding the stall limit (its worker killed again and again) is failed by the
    // next worker that picks it up. Retries are not final: BullMQ sets finishedOn only then.
    worker.on('failed', (job) => {
      if (!job?.finishedOn) return;
      const track = IngestPayload.safeParse(job.data);
      if (!track.success) return;
      const error = failureOfReason(job.failedReason);
      ports.status
        .failAt(track.data.docId, track.data.version, track.data.gen, stage, error)
        .then((applied) => {
          if (applied) wlog.warn('document failed', { jobId: job.id, docId: track.data.docId, stage, code: error.code });
        })
        .catch((e: unknown) => wlog.error('could not record a failed job', { jobId: job.id, ...describeError(e) }));
    });
    return worker;
  });

  const ready = Promise.all(
    defs.map(async (def) => {
      try {
        await def.onStart?.(ports);
      } catch (err) {
        log.error('worker start hook failed', { queue: def.queue.name, ...describeError(err) });
        throw err;
      }
    }),
  ).then(() => undefined);
  // Logged above; the rejection stays observable to whoever awaits `ready`.
  ready.catch(() => undefined);

  let closing = false;
  return {
    names: defs.map((d) => d.queue.name),
    ready,
    isRunning: () => !closing && workers.every((w) => w.isRunning()),
    async close(graceMs = 25_000) {
      closing = true;
      const graceful = Promise.all(workers.map((w) => w.close()));
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
      if ((await Promise.race([graceful.then(() => 'done' as const), timer])) === 'timeout') {
        log.warn('grace period over: cancelling running jobs so they go back to the queue');
        for (const w of workers) w.cancelAllJobs(SHUTDOWN_REASON);
        // A handler that honours its signal returns at once and its job is put back to waiting;
        // one that ignores it is not waited for past this: its job stalls and is run again.
        const cancelled = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), Math.min(5000, graceMs)).unref());
        if ((await Promise.race([graceful.then(() => 'done' as const), cancelled])) === 'timeout') {
          log.warn('a cancelled job ignored its signal; it will stall and run again elsewhere');
        }
      }
      await Promise.all(connections.map((c) => c.quit().catch(() => undefined)));
    },
  };
}
