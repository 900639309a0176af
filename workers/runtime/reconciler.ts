import type { Job } from 'bullmq';
import { INGEST_QUEUES, deleteQueue, stageOfQueue } from '../../queues/ingest.queues.ts';
import type { QueueDefinition } from '../../queues/define-queue.ts';
import type { QueueClient } from '../../queues/queue-client.ts';
import { decodeFailure, describeError, type Failure } from '../../shared/errors.ts';
import type { DocStatus, StatusStore } from '../../shared/status/index.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { createDocumentLifecycle } from './document-lifecycle.ts';

/**
 * The reconciler makes ingestion converge whatever Redis or a worker lost: every pass it
 * (a) re-enqueues the current stage of a document whose status says queued/running/deleting but
 * whose job is in no live state, (b) fails a document whose job is in the failed set (the
 * worker's `failed` event may have been missed: it fires in whichever process picks the job up
 * next, and that one may die too), and (c) has sources with no status record registered.
 * It only acts on status records older than a grace period, and re-reads a record before acting,
 * so a document merely between two stages is never enqueued twice; every action is idempotent
 * (deterministic job ids, status writes conditional on the registration), so two passes, or two
 * reconcilers, at once do no double work either.
 */

/** Where a status record says its document is: the queue of its current stage and that job's payload. */
export interface StageTarget {
  queue: QueueDefinition;
  payload: { docId: string; version: string; gen: number } | { docId: string; gen: number };
}

/** What became of the job of a document's current stage. */
export type JobProbe = { state: 'live' } | { state: 'missing' } | { state: 'completed' } | { state: 'failed'; failedReason: string | undefined };

/** One repair; `null` from {@link planRepair} when the document needs none. */
export type Repair = { kind: 'requeue'; target: StageTarget } | { kind: 'fail'; target: StageTarget; error: Failure };

const QUEUE_OF_STAGE = new Map<string, QueueDefinition>(INGEST_QUEUES.map((q) => [stageOfQueue(q.name), q]));

/** The job a status record waits on, or null when it waits on none (settled, or an unknown stage). */
export function stageTarget(s: DocStatus): StageTarget | null {
  if (s.state === 'deleting') return { queue: deleteQueue, payload: { docId: s.docId, gen: s.gen } };
  if (s.state !== 'queued' && s.state !== 'running') return null;
  const queue = QUEUE_OF_STAGE.get(s.stage);
  if (!queue || queue === deleteQueue) return null;
  return { queue, payload: { docId: s.docId, version: s.version, gen: s.gen } };
}

/**
 * The repair a document needs, from its status record and its current job's fate: none while
 * the record is younger than `graceMs` or the job is live; fail when the job failed (not for a
 * deletion, which is re-run instead: deleting is always safe to repeat); otherwise re-enqueue.
 */
export function planRepair(s: DocStatus, probe: JobProbe, nowMs: number, graceMs: number): Repair | null {
  const target = stageTarget(s);
  if (!target) return null;
  const updated = Date.parse(s.updatedAt);
  if (Number.isFinite(updated) && nowMs - updated < graceMs) return null;
  if (probe.state === 'live') return null;
  if (probe.state === 'failed' && s.state !== 'deleting') return { kind: 'fail', target, error: decodeFailure(probe.failedReason) };
  return { kind: 'requeue', target };
}

const LIVE = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

async function probeJob(job: Job | undefined): Promise<JobProbe> {
  if (!job) return { state: 'missing' };
  const state = await job.getState();
  if (LIVE.has(state)) return { state: 'live' };
  if (state === 'completed') return { state: 'completed' };
  if (state === 'failed') return { state: 'failed', failedReason: job.failedReason };
  return { state: 'missing' };
}

/** Sources the watcher knows of (keys as status records hold them), and a way to register the missing ones. */
export interface SourceListing {
  listKeys(): Promise<string[]>;
  /** Registers these sources (each through the watcher, so metadata and checks apply as usual). */
  register(keys: string[]): Promise<void>;
}

export interface ReconcilerDeps {
  status: StatusStore;
  queues: QueueClient;
  log: Logger;
  /** Status records younger than this are left alone. */
  graceMs: number;
  /** The watched folder's listing; absent for a bucket, whose cursor is lost with the statuses and rescanned by its poll. */
  sources?: SourceListing;
  clock?: () => number;
}

export interface ReconcileReport {
  requeued: number;
  failed: number;
  registered: number;
}

const sameRecord = (a: DocStatus, b: DocStatus | null) =>
  b !== null && a.state === b.state && a.stage === b.stage && a.gen === b.gen && a.version === b.version && a.updatedAt === b.updatedAt;

/** One pass over every status record (and the source listing). @throws when Redis is unreachable; the next pass retries. */
export async function reconcileOnce(deps: ReconcilerDeps): Promise<ReconcileReport> {
  const now = deps.clock ?? Date.now;
  const report: ReconcileReport = { requeued: 0, failed: 0, registered: 0 };
  const lifecycle = createDocumentLifecycle(deps.status);
  const statuses = await deps.status.list();
  for (const s of statuses) {
    const target = stageTarget(s);
    if (!target || planRepair(s, { state: 'missing' }, now(), deps.graceMs) === null) continue;
    const queue = deps.queues.queue(target.queue);
    const job = await queue.getJob(target.queue.jobId(target.payload));
    const repair = planRepair(s, await probeJob(job), now(), deps.graceMs);
    if (!repair) continue;
    // The record may have moved on while the job was looked up (the stage finished and handed
    // on): act only on the state the plan was made from.
    if (!sameRecord(s, await deps.status.get(s.docId))) continue;
    if (repair.kind === 'fail') {
      if (await lifecycle.fail(s, repair.error)) {
        report.failed++;
        deps.log.warn('reconciler: document failed', { docId: s.docId, stage: s.stage, code: repair.error.code });
      }
      continue;
    }
    // A finished job under the id (completed, or a failed deletion) would swallow the add (same
    // deterministic id): remove it first.
    const finished = job ? await job.getState() : null;
    if (job && (finished === 'completed' || finished === 'failed')) await job.remove();
    await deps.queues.enqueue(target.queue, target.payload);
    // Touching the record restarts its grace period: the next pass finds the job live or waits.
    if (s.state !== 'deleting') await lifecycle.requeue(s);
    report.requeued++;
    deps.log.warn('reconciler: stage re-enqueued', { docId: s.docId, stage: s.stage, state: s.state });
  }
  if (deps.sources) {
    const known = new Set(statuses.map((s) => s.sourceKey));
    const missing = (await deps.sources.listKeys()).filter((k) => !known.has(k));
    // Listed after the statuses were read: a source registered in between is registered again,
    // which registration tells apart ("unchanged") at no cost but reading it.
    if (missing.length) {
      await deps.sources.register(missing);
      report.registered = missing.length;
      deps.log.warn('reconciler: sources with no status registered', { count: missing.length });
    }
  }
  return report;
}

export interface Reconciler {
  /** Runs a pass now (after the one running, if any). */
  runNow(): Promise<ReconcileReport>;
  stop(): Promise<void>;
}

/**
 * Runs {@link reconcileOnce} every `intervalMs` in this process. An in-process timer rather than
 * a BullMQ job scheduler: the scheduler lives in Redis and is lost with the very data loss the
 * reconciler must repair. The caller runs it only while holding the watcher's Redis lease, so one
 * process per prefix reconciles, and a lease lost with the data is taken again by some process.
 */
export function startReconciler(deps: ReconcilerDeps & { intervalMs: number }): Reconciler {
  let running: Promise<ReconcileReport> = Promise.resolve({ requeued: 0, failed: 0, registered: 0 });
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const runNow = () => {
    running = running.then(() =>
      reconcileOnce(deps).catch((err: unknown) => {
        deps.log.error('reconciler pass failed', describeError(err));
        return { requeued: 0, failed: 0, registered: 0 };
      }),
    );
    return running;
  };
  const loop = () => {
    if (stopped) return;
    timer = setTimeout(() => void runNow().finally(loop), deps.intervalMs);
    timer.unref();
  };
  loop();
  return {
    runNow,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
