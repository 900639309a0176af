import type { Redis } from 'ioredis';
import { z } from 'zod';
import { runContextKeys } from '../redis/index.ts';
import { DEFAULT_TRACE_MAX_COUNT, putCapped } from './capped-store.ts';

/**
 * What feedback on a run needs later: the query's vector, intent and entities, and the chunks the
 * answer cited. Kept as long as the run's trace, never with the query text itself.
 */
export const RunContext = z.object({
  runId: z.string(),
  queryVector: z.array(z.number()),
  intent: z.string(),
  entities: z.array(z.string()),
  citedChunkIds: z.array(z.string()),
});
export type RunContext = z.infer<typeof RunContext>;

export interface RunContextStore {
  put(ctx: RunContext): Promise<void>;
  get(runId: string): Promise<RunContext | null>;
}

/** Run contexts in Redis, kept like traces: `ttlSeconds` at most, and only the newest `maxCount`. */
export function createRunContextStore(redis: Redis, prefix: string, ttlSeconds: number, maxCount: number = DEFAULT_TRACE_MAX_COUNT): RunContextStore {
  const keys = runContextKeys(prefix);
  const key = (runId: string) => keys.valuePrefix + runId;
  return {
    async put(ctx) {
      await putCapped(redis, keys, ctx.runId, JSON.stringify(RunContext.parse(ctx)), { ttlSeconds, maxCount });
    },
    async get(runId) {
      const raw = await redis.get(key(runId));
      return raw === null ? null : RunContext.parse(JSON.parse(raw));
    },
  };
}
