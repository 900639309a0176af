import { QueueEvents, type Job, type Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IngestPayload, defineIngestQueue } from '../../queues/define-queue.ts';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { startHealthServer } from '../../workers/runtime/health.ts';
import { createRedis } from '../../queues/redis-connection.ts';
import { defineStageWorker } from '../../workers/runtime/stage-worker.ts';
import { startWorkers } from '../../workers/runtime/start-workers.ts';
import { usePortsFixture } from '../helpers/ports-fixture.ts';
import { REDIS_AVAILABLE } from '../helpers/redis.ts';
import { settlesWithin } from '../helpers/timing-asserts.ts';

const V = 'c'.repeat(64);

describe.skipIf(!REDIS_AVAILABLE)('worker runtime', () => {
  const calls: string[] = [];

  const second = defineIngestQueue('ingest-rt-second', z.object({ ok: z.boolean() }), undefined, { attempts: 1 });
  const first = defineIngestQueue('ingest-rt-first', z.object({ n: z.number() }), second, { attempts: 3, backoffMs: 50 });
  const firstWorker = defineStageWorker(first, { needs: [] }, async (p, ctx) => {
    calls.push(`first:${p.docId}:${ctx.attemptsMade}`);
    await ctx.progress(50);
    if (p.docId === 'permanent') throw new PermanentError('CORRUPT_PDF', 'broken xref');
    if (p.docId === 'flaky' && ctx.attemptsMade < 2) throw new RetryableError('STORE_UNAVAILABLE', 'try later');
    if (p.docId === 'bad-result') return { n: 'NaN' } as unknown as { n: number };
    return { n: 1 };
  });
  const secondWorker = defineStageWorker(second, { needs: [] }, async (p) => {
    calls.push(`second:${p.docId}`);
    return { ok: true };
  });

  const fx = usePortsFixture();

  /** Registers a document and hands it to `stage`, as the stage before would. */
  async function registerAt(docId: string, stage: string): Promise<number> {
    const { gen } = await fx.ports.status.register({ docId, sourceKey: `k:${docId}`, version: V });
    await fx.ports.status.update(docId, V, gen, { stage, state: 'queued' });
    return gen;
  }

  async function runOne(docId: string): Promise<number> {
    const gen = await registerAt(docId, 'rt-first');
    await fx.ports.queues.enqueue(first, { docId, version: V, gen });
    return gen;
  }

  /** The job once it has finished (or as it is after ~5 s). */
  async function finishedJob(q: Queue, id: string): Promise<Job | undefined> {
    for (let i = 0; i < 100 && !(await q.getJob(id))?.finishedOn; i++) await new Promise((r) => setTimeout(r, 50));
    return q.getJob(id);
  }

  async function settled(docId: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const s = await fx.ports.status.get(docId);
      const counts = await fx.ports.queues.counts(first);
      const counts2 = await fx.ports.queues.counts(second);
      const open = counts.waiting + counts.active + counts.delayed + counts2.waiting + counts2.active;
      if (s && open === 0 && (s.state === 'failed' || s.timings['rt-second'] !== undefined)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${docId} did not settle`);
  }

  it('runs a stage, records timing, enqueues the next stage under its deterministic id', async () => {
    const group = startWorkers([firstWorker, secondWorker], fx.ports, createLogger('silent'));
    try {
      const gen = await runOne('good');
      await settled('good');
      const s = await fx.ports.status.get('good');
      expect(Object.keys(s!.timings).sort()).toEqual(['rt-first', 'rt-second']);
      expect(calls.filter((c) => c.includes('good'))).toEqual(['first:good:0', 'second:good']);
      const job = await fx.ports.queues.queue(second).getJob(`ingest-rt-second-good-${V}-g${gen}`);
      expect(job?.returnvalue).toEqual({ ok: true });

      // A permanent error fails at once, with its code, and is not retried.
      await runOne('permanent');
      await settled('permanent');
      expect(await fx.ports.status.get('permanent')).toMatchObject({ state: 'failed', errorCode: 'CORRUPT_PDF', errorMessage: 'broken xref' });
      expect(calls.filter((c) => c.startsWith('first:permanent'))).toHaveLength(1);

      // A retryable error is retried with backoff and then succeeds.
      await runOne('flaky');
      await settled('flaky');
      expect(calls.filter((c) => c.startsWith('first:flaky'))).toEqual(['first:flaky:0', 'first:flaky:1', 'first:flaky:2']);
      expect((await fx.ports.status.get('flaky'))?.state).not.toBe('failed');

      // A handler returning the wrong shape fails as INVALID_RESULT.
      await runOne('bad-result');
      await settled('bad-result');
      expect((await fx.ports.status.get('bad-result'))?.errorCode).toBe('INVALID_RESULT');

      // A payload that does not validate never reaches the handler.
      const events = new QueueEvents(first.name, { connection: createRedis(fx.ws.config.redisUrl), prefix: fx.ws.config.prefix });
      await events.waitUntilReady();
      const job2 = await fx.ports.queues.queue(first).add(first.name, { docId: 'Not An Id!', version: 'x', gen: 0 } as unknown as IngestPayload, { attempts: 3 });
      await expect(job2.waitUntilFinished(events, 10_000)).rejects.toThrow(/INVALID_PAYLOAD/);
      expect(job2.id && (await fx.ports.queues.queue(first).getJob(job2.id))?.attemptsMade).toBe(1);
      await events.close();
      expect(calls.some((c) => c.includes('Not An Id'))).toBe(false);
    } finally {
      await group.close();
    }
    expect(group.isRunning()).toBe(false);
  }, 60_000);

  it('skips jobs of a superseded registration', async () => {
    const group = startWorkers([firstWorker, secondWorker], fx.ports, createLogger('silent'));
    try {
      const { gen } = await fx.ports.status.register({ docId: 'old', sourceKey: 'k:old', version: V });
      await fx.ports.status.register({ docId: 'old', sourceKey: 'k:old', version: 'd'.repeat(64) });
      await fx.ports.queues.enqueue(first, { docId: 'old', version: V, gen });
      const q = fx.ports.queues.queue(first);
      const id = `ingest-rt-first-old-${V}-g${gen}`;
      const job = await finishedJob(q, id);
      expect(job?.returnvalue).toEqual({ superseded: true });
      expect(calls.some((c) => c.startsWith('first:old'))).toBe(false);
    } finally {
      await group.close();
    }
  }, 30_000);

  it('a job delivered again after its stage was handed on neither runs nor moves the document back', async () => {
    const group = startWorkers([firstWorker, secondWorker], fx.ports, createLogger('silent'));
    try {
      const gen = await runOne('again');
      await settled('again');
      const before = await fx.ports.status.get('again');
      expect(before).toMatchObject({ stage: 'rt-second' });
      // Its worker died between enqueueing the next stage and completing the job: BullMQ hands
      // the job out again (here: the finished job removed and added anew under its id).
      const q = fx.ports.queues.queue(first);
      const id = `ingest-rt-first-again-${V}-g${gen}`;
      await (await q.getJob(id))?.remove();
      await fx.ports.queues.enqueue(first, { docId: 'again', version: V, gen });
      expect((await finishedJob(q, id))?.returnvalue).toEqual({ superseded: true });
      expect(calls.filter((c) => c.startsWith('first:again'))).toHaveLength(1);
      const after = await fx.ports.status.get('again');
      expect(after).toMatchObject({ state: before!.state, stage: 'rt-second', timings: before!.timings });
    } finally {
      await group.close();
    }
  }, 30_000);

  it('a job delivered again after its hand-over was recorded but before the next stage was enqueued enqueues it', async () => {
    const group = startWorkers([firstWorker, secondWorker], fx.ports, createLogger('silent'));
    try {
      // The worker recorded the hand-over (document queued at the next stage) and died before the enqueue.
      const gen = await registerAt('cut', 'rt-second');
      await fx.ports.queues.enqueue(first, { docId: 'cut', version: V, gen });
      await settled('cut');
      expect(calls.filter((c) => c.includes(':cut'))).toEqual(['second:cut']);
      expect((await fx.ports.queues.queue(first).getJob(`ingest-rt-first-cut-${V}-g${gen}`))?.returnvalue).toEqual({ superseded: true });
    } finally {
      await group.close();
    }
  }, 30_000);

  it('on shutdown, a job still running when the grace period ends goes back to waiting (no failed attempt) and another worker runs it', async () => {
    // One attempt only: were the cancel counted as a failed attempt, the job and document would fail.
    const slow = defineIngestQueue('ingest-rt-slow', z.object({ by: z.string() }), undefined, { attempts: 1 });
    const started: string[] = [];
    const slowWorker = (name: string, hang: boolean) =>
      defineStageWorker(slow, { needs: [] }, async (p, ctx) => {
        started.push(`${name}:${p.docId}`);
        // A stuck job: it ends only when the runtime aborts it.
        if (hang) await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new RetryableError('STORE_UNAVAILABLE', 'cancelled at shutdown'))));
        return { by: name };
      });
    const a = startWorkers([slowWorker('a', true)], fx.ports, createLogger('silent'));
    const gen = await registerAt('slow', 'rt-slow');
    await fx.ports.queues.enqueue(slow, { docId: 'slow', version: V, gen });
    const q = fx.ports.queues.queue(slow);
    for (let i = 0; i < 100 && started.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(started).toEqual(['a:slow']);
    // The stuck job is aborted when the 300 ms grace ends: close() must not wait for it (or for
    // its 30 s lock) — a generous hang guard, not a speed check.
    await settlesWithin(a.close(300), 20_000, 'closing a worker holding a stuck job');
    // Not stalled until its lock expires, not retried after a backoff: back in line at once,
    // with no attempt counted, and its document still queued without an error.
    const id = `ingest-rt-slow-slow-${V}-g${gen}`;
    const back = await q.getJob(id);
    expect(await back?.getState()).toBe('waiting');
    expect(back?.attemptsMade).toBe(0);
    expect(back?.stalledCounter ?? 0).toBe(0);
    expect(await fx.ports.status.get('slow')).toMatchObject({ state: 'queued', stage: 'rt-slow', errorCode: null });
    const b = startWorkers([slowWorker('b', false)], fx.ports, createLogger('silent'));
    try {
      expect((await finishedJob(q, id))?.returnvalue).toEqual({ by: 'b' });
    } finally {
      await b.close();
    }
  }, 30_000);

  it('serves /healthz and /readyz', async () => {
    let running = true;
    const health = await startHealthServer({ port: 0, redis: fx.ports.redis, isRunning: () => running });
    try {
      const base = `http://127.0.0.1:${health.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ ready: true, redis: true, workers: true });
      running = false;
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
    } finally {
      await health.close();
    }
  });
});
