import { describe, expect, it } from 'vitest';
import { chunkQueue, deleteQueue, embedQueue } from '../../queues/ingest.queues.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import { decodeFailure } from '../../shared/errors.ts';
import { planRepair, stageTarget } from '../../workers/runtime/reconciler.ts';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const GRACE = 60_000;
const status = (s: Partial<DocStatus>): DocStatus => ({
  docId: 'd',
  sourceKey: 'dir:d.pdf',
  version: 'a'.repeat(64),
  gen: 7,
  state: 'queued',
  stage: 'chunk',
  progress: 0,
  errorCode: null,
  errorMessage: null,
  timings: {},
  pageCount: null,
  chunkCount: null,
  registeredAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...s,
});

describe('reconciler plan', () => {
  it('targets the job of the current stage, the delete job of a deletion, and nothing when settled', () => {
    expect(stageTarget(status({}))).toEqual({ queue: chunkQueue, payload: { docId: 'd', version: 'a'.repeat(64), gen: 7 } });
    expect(stageTarget(status({ state: 'running', stage: 'embed' }))?.queue).toBe(embedQueue);
    expect(stageTarget(status({ state: 'deleting', stage: 'delete' }))).toEqual({ queue: deleteQueue, payload: { docId: 'd', gen: 7 } });
    for (const state of ['indexed', 'failed', 'deleted'] as const) expect(stageTarget(status({ state }))).toBeNull();
    expect(stageTarget(status({ stage: 'nonsense' }))).toBeNull();
  });

  it('leaves a record alone within the grace period (between stages) and while its job is live', () => {
    const fresh = status({ updatedAt: new Date(NOW - GRACE + 1000).toISOString() });
    expect(planRepair(fresh, { state: 'missing' }, NOW, GRACE)).toBeNull();
    expect(planRepair(status({}), { state: 'live' }, NOW, GRACE)).toBeNull();
  });

  it('re-enqueues a stage whose job is missing or completed, and a deletion whose job failed', () => {
    expect(planRepair(status({}), { state: 'missing' }, NOW, GRACE)).toMatchObject({ kind: 'requeue', target: { queue: chunkQueue } });
    expect(planRepair(status({ state: 'running' }), { state: 'completed' }, NOW, GRACE)).toMatchObject({ kind: 'requeue' });
    expect(planRepair(status({ state: 'deleting', stage: 'delete' }), { state: 'failed', failedReason: 'x' }, NOW, GRACE)).toMatchObject({ kind: 'requeue', target: { queue: deleteQueue } });
  });

  it('fails a document whose job failed, with the code its reason carries', () => {
    expect(planRepair(status({ state: 'running' }), { state: 'failed', failedReason: 'job stalled more than allowable limit' }, NOW, GRACE)).toMatchObject({
      kind: 'fail',
      error: { code: 'WORKER_LOST' },
    });
    expect(planRepair(status({}), { state: 'failed', failedReason: 'CORRUPT_PDF: broken xref' }, NOW, GRACE)).toMatchObject({
      kind: 'fail',
      error: { code: 'CORRUPT_PDF', message: 'broken xref' },
    });
  });

  it('reads failed reasons: stall limit, coded, anything else', () => {
    expect(decodeFailure('job stalled more than allowable limit').code).toBe('WORKER_LOST');
    expect(decodeFailure('STORE_UNAVAILABLE: weaviate: connect ECONNREFUSED')).toEqual({ code: 'STORE_UNAVAILABLE', message: 'weaviate: connect ECONNREFUSED' });
    expect(decodeFailure('Missing lock for job 12. moveToFinished')).toEqual({ code: 'INTERNAL', message: 'Missing lock for job 12. moveToFinished' });
    expect(decodeFailure(undefined).code).toBe('INTERNAL');
  });
});
