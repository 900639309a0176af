import { describeError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { BullmqStageWorker, SHUTDOWN_REASON } from './bullmq-stage-worker.ts';
import { createDocumentLifecycle } from './document-lifecycle.ts';
import { applyWorkerNice } from './nice.ts';
import { pickPorts, type Ports } from './ports.ts';
import type { StageWorkerDefinition } from './stage-worker.ts';

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

/**
 * Starts one bullmq Worker per definition ({@link BullmqStageWorker}, the only `new Worker`),
 * over one document life-cycle, and runs each definition's `onStart` hook with its ports.
 */
export function startWorkers(defs: readonly StageWorkerDefinition[], ports: Ports, log: Logger): WorkerGroup {
  // Before any worker starts a thread or a child: they inherit it (WORKER_NICE, 0 by default).
  applyWorkerNice(ports.config.worker.nice, log);
  const lifecycle = createDocumentLifecycle(ports.status);
  const workers = defs.map((def) => new BullmqStageWorker(def, ports, lifecycle, log));
  const ready = runStartHooks(defs, ports, log);
  let closing = false;
  return {
    names: defs.map((d) => d.queue.name),
    ready,
    isRunning: () => !closing && workers.every((w) => w.isRunning()),
    async close(graceMs = 25_000) {
      closing = true;
      await closeWorkers(workers, graceMs, log);
    },
  };
}

/** Every definition's `onStart`, with the ports it declared; a failure is logged and rejects the whole. */
function runStartHooks(defs: readonly StageWorkerDefinition[], ports: Ports, log: Logger): Promise<void> {
  const ready = Promise.all(
    defs.map(async (def) => {
      try {
        await def.onStart?.(pickPorts(ports, def.needs));
      } catch (err) {
        log.error('worker start hook failed', { queue: def.queue.name, ...describeError(err) });
        throw err;
      }
    }),
  ).then(() => undefined);
  // Logged above; the rejection stays observable to whoever awaits `ready`.
  ready.catch(() => undefined);
  return ready;
}

/** Resolves 'timeout' after `ms` unless something else settles first (the timer never holds the process). */
const timeout = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref());

/**
 * Closes the workers: waits up to `graceMs` for running jobs, then cancels those still running
 * so they go back to the queue, then closes the workers' connections.
 */
async function closeWorkers(workers: readonly BullmqStageWorker[], graceMs: number, log: Logger): Promise<void> {
  const graceful = Promise.all(workers.map((w) => w.close())).then(() => 'done' as const);
  if ((await Promise.race([graceful, timeout(graceMs)])) === 'timeout') {
    log.warn('grace period over: cancelling running jobs so they go back to the queue');
    for (const w of workers) w.cancelAll(SHUTDOWN_REASON);
    // A handler that honours its signal returns at once and its job is put back to waiting;
    // one that ignores it is not waited for past this: its job stalls and is run again.
    if ((await Promise.race([graceful, timeout(Math.min(5000, graceMs))])) === 'timeout') {
      log.warn('a cancelled job ignored its signal; it will stall and run again elsewhere');
    }
  }
  await Promise.all(workers.map((w) => w.disconnect()));
}
