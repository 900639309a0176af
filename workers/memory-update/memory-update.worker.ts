import { memoryUpdateQueue } from '../../queues/memory.queues.ts';
import { quarryMetrics } from '../../shared/metrics/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { memoryUpdateStage } from './memory-update.stage.ts';

/** Applies a validated run's outcomes to chunk memory, once per (run, chunk) however often it runs. */
export const memoryUpdateWorker = defineStageWorker(memoryUpdateQueue, { needs: ['memory'] }, async (payload, { memory, log }) => {
  const outcomes = memoryUpdateStage(payload);
  const deltas = await memory.applyOutcomes(outcomes, { runId: payload.runId });
  const applied = deltas.filter((d) => d.applied).length;
  quarryMetrics().memoryUpdates.inc(applied);
  log.info('memory updated', { runId: payload.runId, applied, skipped: deltas.length - applied });
  return { applied, skipped: deltas.length - applied, deltas };
});
