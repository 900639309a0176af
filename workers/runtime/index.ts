/**
 * The stage runtime: defineStageWorker (a stage and the ports it needs), the one place a bullmq
 * Worker is built (bullmq-stage-worker.ts, started by start-workers.ts), the document life-cycle,
 * the reconciler, the health and metrics endpoint, running a stage once in-process.
 * May import shared/ and queues/; never apps/.
 * Entry points: defineStageWorker, Ports, runStageOnce, startReconciler; loadWorkerStart and
 * loadHealthServer for a process that runs workers (they load prom-client).
 */

export type { Ports } from './ports.ts';
export { startReconciler, type Reconciler } from './reconciler.ts';
export { runStageOnce } from './run-once.ts';
export { defineStageWorker, type StageWorkerDefinition } from './stage-worker.ts';
export type { WorkerGroup } from './start-workers.ts';

/**
 * The BullMQ workers' start (with their metrics, prom-client), imported by a process that runs
 * workers: a stage's definition and a command that runs one stage once do not load it.
 */
export const loadWorkerStart = () => import('./start-workers.ts');

/** The health and metrics endpoint of a worker process (prom-client), imported when one starts. */
export const loadHealthServer = () => import('./health.ts');
