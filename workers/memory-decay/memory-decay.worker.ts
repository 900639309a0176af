import { ensureMemoryDecaySchedule, memoryDecayQueue } from '../../queues/memory.queues.ts';
import { defineStageWorker } from '../runtime/index.ts';

/**
 * Materialises every chunk's utility and prunes forgotten chunks. Decay itself is exact math at
 * read time, so a late or skipped run changes no ranking; it only bounds Redis memory.
 * Starting this worker (re)creates the weekly scheduler, so deploying it is all the set-up needed.
 */
export const memoryDecayWorker = defineStageWorker(
  memoryDecayQueue,
  {
    needs: ['config', 'memory', 'queues'],
    // Two decays at once would scan the same index twice for nothing.
    concurrency: () => 1,
    onStart: async ({ queues }) => ensureMemoryDecaySchedule(queues),
  },
  async ({ requestedAt }, { memory, config, log }) => {
    const now = requestedAt ? new Date(requestedAt) : new Date();
    const report = await memory.decayAll(now, { pruneBelow: config.memory.pruneBelow });
    log.info('memory decayed', { at: now.toISOString(), ...report });
    return { at: now.toISOString(), ...report };
  },
);
