import type { Redis } from 'ioredis';
import { z } from 'zod';

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

export function createRunContextStore(redis: Redis, prefix: string, ttlSeconds: number): RunContextStore {
  const key = (runId: string) => `${prefix}:runctx:${runId}`;
  return {
    async put(ctx) {
      await redis.set(key(ctx.runId), JSON.stringify(RunContext.parse(ctx)), 'EX', ttlSeconds);
    },
    async get(runId) {
      const raw = await redis.get(key(runId));
      return raw === null ? null : RunContext.parse(JSON.parse(raw));
    },
  };
}
