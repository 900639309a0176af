import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  ensureMemoryDecaySchedule,
  MEMORY_DECAY_PATTERN,
  MEMORY_DECAY_SCHEDULER_ID,
  memoryDecayQueue,
  memoryUpdateQueue,
  type MemoryUpdatePayload,
} from '../../queues/memory.queues.ts';
import { memoryKeys } from '../../shared/redis/keys.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { memoryDecayWorker } from '../../workers/memory-decay/memory-decay.worker.ts';
import { memoryUpdateStage } from '../../workers/memory-update/memory-update.stage.ts';
import { memoryUpdateWorker } from '../../workers/memory-update/memory-update.worker.ts';
import { startWorkers } from '../../workers/runtime/start-workers.ts';
import { usePortsFixture } from '../helpers/ports-fixture.ts';
import { REDIS_AVAILABLE } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const silent = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runPayload(runId: string, chunkIds: string[], dim = 4): MemoryUpdatePayload {
  return {
    runId,
    at: '2025-03-02T10:00:00.000Z',
    outcomes: chunkIds.map((chunkId, i) => ({
      chunkId,
      queryVector: Array.from({ length: dim }, (_, j) => ((i + j) % 7) / 8),
      intent: 'legal',
      entities: ['gdpr'],
    })),
  };
}

async function finished(queue: Queue, jobId: string, timeoutMs = 30_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.getJob(jobId);
    if (job?.finishedOn) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish (state ${job ? await job.getState() : 'missing'})`);
    await sleep(50);
  }
}

describe.skipIf(!REDIS_AVAILABLE)('memory workers through BullMQ', () => {
  // A short lock, so a job whose worker was killed is picked up again within seconds.
  const fx = usePortsFixture({ WORKER_LOCK_MS: '2000' });

  const countsOf = async (ids: string[]) => [...(await fx.ports.memory.getMany(ids)).values()].map((v) => v.stats.useful_count);

  it('applies a run end to end, once, however often it is enqueued or run', async () => {
    const group = startWorkers([memoryUpdateWorker], fx.ports, silent);
    try {
      const chunks = [randomUUID(), randomUUID()];
      const payload = runPayload('run-e2e-0001', [...chunks, chunks[0]!]);
      const queue = fx.ports.queues.queue(memoryUpdateQueue);
      const id = await fx.ports.queues.enqueue(memoryUpdateQueue, payload);
      expect(id).toBe('memory-update-run-e2e-0001');
      const job = await finished(queue, id);
      expect(job.returnvalue).toMatchObject({ applied: 2, skipped: 0 });
      expect((job.returnvalue as { deltas: unknown[] }).deltas).toEqual(
        chunks.map((chunkId) => ({ chunkId, applied: true, before: { usefulCount: 0, utility: 0 }, after: { usefulCount: 1, utility: 1 } })),
      );
      const view = (await fx.ports.memory.getMany(chunks)).get(chunks[0]!);
      expect(view?.stats).toMatchObject({ useful_count: 1, intent_hist: { legal: 1 }, entity_hist: { gdpr: 1 }, last_useful_at: Date.parse(payload.at) });

      // Enqueued twice: the same job id, so nothing runs again.
      expect(await fx.ports.queues.enqueue(memoryUpdateQueue, payload)).toBe(id);
      await sleep(300);
      expect((await fx.ports.queues.counts(memoryUpdateQueue)).completed).toBe(1);

      // Run twice (as BullMQ does after a crash or once the first job has been removed): the
      // store's (run, chunk) markers make the second a no-op.
      const rerun = await queue.add(memoryUpdateQueue.name, payload, { jobId: `${id}-again` });
      const second = await finished(queue, rerun.id!);
      expect(second.returnvalue).toMatchObject({ applied: 0, skipped: 2 });
      expect(await countsOf(chunks)).toEqual([1, 1]);
    } finally {
      await group.close();
    }
  }, 60_000);

  it('counts once when a re-run follows a partial apply', async () => {
    const chunks = Array.from({ length: 10 }, () => randomUUID());
    const payload = runPayload('run-partial', chunks);
    // What a worker that died after four outcomes left behind:
    await fx.ports.memory.applyOutcomes(memoryUpdateStage(payload).slice(0, 4), { runId: payload.runId });
    const group = startWorkers([memoryUpdateWorker], fx.ports, silent);
    try {
      const job = await finished(fx.ports.queues.queue(memoryUpdateQueue), await fx.ports.queues.enqueue(memoryUpdateQueue, payload));
      expect(job.returnvalue).toMatchObject({ applied: 6, skipped: 4 });
      expect(await countsOf(chunks)).toEqual(Array(10).fill(1));
    } finally {
      await group.close();
    }
  }, 30_000);

  it('counts once when the worker process is SIGKILLed mid-job and the job runs again', async () => {
    const n = 256;
    const chunks = Array.from({ length: n }, () => randomUUID());
    const payload = runPayload('run-killed', chunks, 512);
    const marker = memoryKeys(fx.ws.config.prefix).run(payload.runId);
    const ctl = new Redis(fx.ws.config.redisUrl);
    const { config } = fx.ws;
    const child = spawn(process.execPath, [path.join(root, 'apps/cli/quarry.mjs'), 'workers', 'start', '--only', 'memory-update'], {
      cwd: root,
      env: { ...process.env, REDIS_URL: config.redisUrl, QUARRY_PREFIX: config.prefix, QUARRY_DATA_DIR: config.dataDir, QUARRY_WATCH_DIR: config.watchDir, LOG_LEVEL: 'error', WORKER_LOCK_MS: '2000' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    let group: ReturnType<typeof startWorkers> | undefined;
    try {
      const jobId = await fx.ports.queues.enqueue(memoryUpdateQueue, payload);
      const deadline = Date.now() + 60_000;
      while ((await ctl.scard(marker)) === 0) {
        if (Date.now() > deadline) throw new Error('the worker process applied nothing');
        await sleep(1);
      }
      // Freeze writes the moment the first outcomes land, then kill the process: it dies with
      // the job half done, whatever it had in flight.
      await ctl.call('CLIENT', 'PAUSE', '30000', 'WRITE');
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
      await ctl.call('CLIENT', 'UNPAUSE');
      await sleep(200);
      const partial = await ctl.scard(marker);
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(n);

      group = startWorkers([memoryUpdateWorker], fx.ports, silent);
      const job = await finished(fx.ports.queues.queue(memoryUpdateQueue), jobId, 60_000);
      expect(job.returnvalue).toMatchObject({ applied: n - partial, skipped: partial });
      expect(await ctl.scard(marker)).toBe(n);
      expect(await countsOf(chunks)).toEqual(Array(n).fill(1));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await ctl.call('CLIENT', 'UNPAUSE').catch(() => undefined);
      ctl.disconnect();
      await group?.close();
    }
  }, 120_000);

  it('upserts one weekly decay scheduler however often the worker starts, and decays on demand', async () => {
    const queue = fx.ports.queues.queue(memoryDecayQueue);
    for (let start = 0; start < 2; start++) {
      const group = startWorkers([memoryDecayWorker], fx.ports, silent);
      await group.ready;
      await group.close();
    }
    await ensureMemoryDecaySchedule(fx.ports.queues);
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: MEMORY_DECAY_SCHEDULER_ID, pattern: MEMORY_DECAY_PATTERN, tz: 'UTC' });
    const next = new Date(schedulers[0]!.next!);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([0, 3, 0]);
    expect((await fx.ports.queues.counts(memoryDecayQueue)).delayed).toBe(1);

    const chunk = randomUUID();
    await fx.ports.memory.applyOutcomes(memoryUpdateStage(runPayload('run-decay', [chunk])));
    const group = startWorkers([memoryDecayWorker], fx.ports, silent);
    try {
      const requestedAt = new Date(Date.parse('2025-03-02T10:00:00.000Z') + fx.ws.config.memory.halfLifeMs).toISOString();
      const job = await finished(queue, await fx.ports.queues.enqueue(memoryDecayQueue, { requestedAt }));
      // Every chunk of this prefix (earlier tests' too) was last useful at the same time.
      const report = job.returnvalue as { at: string; scanned: number; updated: number; pruned: number };
      expect(report).toMatchObject({ at: requestedAt, pruned: 0 });
      expect(report.updated).toBe(report.scanned);
      expect(report.updated).toBeGreaterThanOrEqual(1);
      expect((await fx.ports.memory.getMany([chunk])).get(chunk)?.stats).toMatchObject({ decayed_utility: 0.5, utility_at: Date.parse(requestedAt) });
    } finally {
      await group.close();
    }
    expect(await queue.getJobSchedulersCount()).toBe(1);
  }, 30_000);
});
