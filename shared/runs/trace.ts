import type { Redis } from 'ioredis';
import { z } from 'zod';
import { traceKeys } from '../redis/index.ts';
import { DEFAULT_TRACE_MAX_COUNT, putCapped } from './capped-store.ts';

/** One node's part of a run: how long it took and what it decided (numbers and ids, never document text). */
export const TraceStep = z.object({
  node: z.string(),
  startedAt: z.string(),
  ms: z.number(),
  data: z.record(z.string(), z.unknown()),
});
export type TraceStep = z.infer<typeof TraceStep>;

/** Seed 000 §10: everything a person needs to see why a run answered as it did. */
export const Trace = z.object({
  runId: z.string(),
  /** sha256 prefix of the query: traces are shared with operators, queries may be personal. */
  queryHash: z.string(),
  lang: z.string(),
  asOf: z.string().nullable(),
  startedAt: z.string(),
  totalMs: z.number(),
  steps: z.array(TraceStep),
  verdict: z.string(),
  reason: z.string(),
  loops: z.number().int(),
});
export type Trace = z.infer<typeof Trace>;

export interface TraceStore {
  put(trace: Trace): Promise<void>;
  get(runId: string): Promise<Trace | null>;
}

/**
 * Traces in Redis, one JSON value per run, expiring after `ttlSeconds` and capped at `maxCount`
 * (the oldest go first): at ~9 KB a run, a TTL alone lets a busy gateway fill Redis.
 */
export function createTraceStore(redis: Redis, prefix: string, ttlSeconds: number, maxCount: number = DEFAULT_TRACE_MAX_COUNT): TraceStore {
  const keys = traceKeys(prefix);
  const key = (runId: string) => keys.valuePrefix + runId;
  return {
    async put(trace) {
      await putCapped(redis, keys, trace.runId, JSON.stringify(Trace.parse(trace)), { ttlSeconds, maxCount });
    },
    async get(runId) {
      const raw = await redis.get(key(runId));
      return raw === null ? null : Trace.parse(JSON.parse(raw));
    },
  };
}
