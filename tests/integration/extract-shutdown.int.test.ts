import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractQueue } from '../../queues/ingest.queues.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { extractWorker } from '../../workers/extract/extract.worker.ts';
import { startWorkers } from '../../workers/runtime/start-workers.ts';
import { manyPagesPdf } from '../fixtures/pdf-bombs.ts';
import { putSource } from '../helpers/pipeline.ts';
import { usePortsFixture } from '../helpers/ports-fixture.ts';
import { REDIS_AVAILABLE } from '../helpers/redis.ts';
import { settlesWithin } from '../helpers/timing-asserts.ts';

const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/status');
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_PROC) console.warn('extract-shutdown: skipped, no /proc to find the extraction child by');

/** Live children of this process (of any of its threads). */
/** This process's extraction children (not the pool's orphan guard, a shell). */
function children(): number[] {
  const isExtraction = (pid: number): boolean => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('extract-child-entry');
    } catch {
      return false;
    }
  };
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number).filter(isExtraction);
    } catch {
      return [];
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!REDIS_AVAILABLE || !HAS_PROC)('extract worker at shutdown', () => {
  const fx = usePortsFixture({ WORKER_CONCURRENCY: '1', MAX_PDF_PAGES: '20000' });

  it('kills a running extraction when the grace period ends, and the job goes back to waiting', async () => {
    // A PDF that takes many seconds to extract (20,000 pages) while staying small in memory.
    const bytes = manyPagesPdf(20_000);
    const docId = 'slow-extract';
    const version = await putSource(fx.ports.artifacts, docId, bytes);
    const before = new Set(children());
    const group = startWorkers([extractWorker], fx.ports, createLogger('silent'));
    const { gen } = await fx.ports.status.register({ docId, sourceKey: `dir:${docId}.pdf`, version });
    await fx.ports.queues.enqueue(extractQueue, { docId, version, gen });
    // Running: the document says so and an extraction child exists.
    await expect.poll(async () => (await fx.ports.status.get(docId))?.state, { timeout: 15_000, interval: 50 }).toBe('running');
    await expect.poll(() => children().filter((pid) => !before.has(pid)).length, { timeout: 15_000, interval: 50 }).toBeGreaterThan(0);
    const extraction = children().filter((pid) => !before.has(pid));
    // Let the child take the job, then shut down with a short grace.
    await new Promise((r) => setTimeout(r, 1000));
    // The grace ends after 300 ms; the extraction honours its cancel signal (its child is killed
    // below) and close() returns: a hang guard, not a speed check.
    await settlesWithin(group.close(300), 20_000, 'closing the extract worker');
    await expect.poll(() => extraction.filter(alive), { timeout: 1000, interval: 20 }).toEqual([]);
    const job = await fx.ports.queues.queue(extractQueue).getJob(`ingest-extract-${docId}-${version}-g${gen}`);
    expect(await job?.getState()).toBe('waiting');
    expect(await fx.ports.status.get(docId)).toMatchObject({ state: 'queued', errorCode: null });
  }, 60_000);
});
