import type { TrackedDocument } from '../../queues/define-queue.ts';
import type { Failure } from '../../shared/errors.ts';
import type { StageUpdate, StatusStore } from '../../shared/status/index.ts';

/**
 * A document's life-cycle as the runtime drives it: the one module of `workers/runtime` that
 * writes a document's status record (ARCHITECTURE §4). Every write is conditional on the job's
 * registration `(docId, version, gen)` still being the current one and, where it matters, on the
 * document still being at the job's stage, so a stale job (superseded, delivered again after its
 * hand-over, outlived by a deletion or a loss of Redis's data) never moves a document backwards.
 *
 *   queued@s ──begin──▶ running@s ──handOver──▶ queued@next      (last stage: finish)
 *      ▲                    │  └──attemptFailed(final)──▶ failed
 *      └──────requeue───────┘     (shutdown, reconciler)       fail: the job failed for good
 *
 * Stage handlers write their own outcomes (upsert's `indexed`, delete's `deleted`); everything
 * else about a document's progress through the queues is written here.
 */

/** A tracked job's document at the job's stage (the status record's stage name). */
export type DocumentAtStage = TrackedDocument & { stage: string };

/** What a stage may record on its document's status record, with its hand-over. */
export type StatusFields = Pick<StageUpdate, 'pageCount' | 'chunkCount' | 'warnings' | 'profile' | 'coverage'>;

/** What a finished stage records: the fields it collected and how long it took. */
export interface StageDone {
  recorded: StatusFields;
  ms: number;
}

export interface DocumentLifecycle {
  /**
   * Marks the document running at this stage, in one round trip that also checks the job is its
   * current work: applies only while this registration waits at or runs the stage.
   * @returns false when the job may not run (superseded, or its stage already handed on).
   */
  begin(at: DocumentAtStage): Promise<boolean>;
  /** Progress (0–100) within the running stage. */
  progress(doc: TrackedDocument, pct: number): Promise<void>;
  /**
   * The stage's fields and timing, and the document queued at `nextStage`, in one write that
   * applies only while the registration is current and at this stage.
   * @returns false when it was superseded while running (the next stage must not be enqueued).
   */
  handOver(at: DocumentAtStage, nextStage: string, done: StageDone): Promise<boolean>;
  /** The last tracked stage: its fields and timing, progress 100 (its handler set the final state). */
  finish(at: DocumentAtStage, done: StageDone): Promise<void>;
  /** Back to queued at its stage, no progress (a job returned at shutdown, one re-enqueued by the reconciler). */
  requeue(at: DocumentAtStage): Promise<boolean>;
  /** One attempt failed: its error on the record, and the document failed when it was the last attempt. */
  attemptFailed(at: DocumentAtStage, failure: Failure, final: boolean): Promise<void>;
  /**
   * The job failed for good (its `failed` event, or the reconciler finding it in the failed set):
   * the document failed with `failure`, only while it is still queued at or running this stage.
   * @returns true when applied.
   */
  fail(at: DocumentAtStage, failure: Failure): Promise<boolean>;
  /** What a stage replayed outside the queues found, on the document's current registration. */
  record(doc: TrackedDocument, fields: StatusFields): Promise<void>;
  /** True when this registration waits (queued) at `stage`: a recorded hand-over whose enqueue may have been lost. */
  waitsAt(doc: TrackedDocument, stage: string): Promise<boolean>;
}

/** The life-cycle over a status store. */
export function createDocumentLifecycle(status: StatusStore): DocumentLifecycle {
  const write = (doc: TrackedDocument, u: StageUpdate, atStage?: string) =>
    status.update(doc.docId, doc.version, doc.gen, u, atStage === undefined ? undefined : { atStage });
  return {
    begin: (at) => write(at, { state: 'running', stage: at.stage, progress: 0 }, at.stage),
    progress: async (doc, pct) => void (await write(doc, { progress: pct })),
    handOver: (at, nextStage, { recorded, ms }) =>
      // The stage's timing and fields ride on the hand-over: one round trip per stage, not two.
      write(at, { ...recorded, timing: { stage: at.stage, ms }, stage: nextStage, state: 'queued', progress: 0 }, at.stage),
    finish: async (at, { recorded, ms }) => void (await write(at, { ...recorded, timing: { stage: at.stage, ms }, progress: 100 })),
    requeue: (at) => write(at, { state: 'queued', progress: 0 }, at.stage),
    attemptFailed: async (at, failure, final) => void (await write(at, { error: failure, ...(final ? { state: 'failed' as const } : {}) }, at.stage)),
    fail: (at, failure) => status.failAt(at.docId, at.version, at.gen, at.stage, failure),
    record: async (doc, fields) => {
      if (Object.keys(fields).length > 0) await write(doc, fields);
    },
    waitsAt: async (doc, stage) => {
      const s = await status.get(doc.docId);
      return s !== null && s.version === doc.version && s.gen === doc.gen && s.state === 'queued' && s.stage === stage;
    },
  };
}
