/**
 * A run's progress as it happens, for streaming answers: the agent worker appends events to a
 * Redis Stream of the run (`<prefix>:runstream:<runId>`), and the gateway reads them with XREAD.
 * A stream rather than pub/sub: a subscriber that arrives late (the job started before the
 * gateway's first read) or reads slowly (a slow HTTP client) still gets every event in order,
 * because the stream itself is the buffer; MAXLEN and a TTL keep it bounded.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { runStreamKey } from '../redis/index.ts';
import { AgentAnswer, Citation } from './answer.ts';

/** One progress event of a run (the SSE events of `POST /v1/query` but `run`, which the gateway writes). */
export const RunEvent = z.discriminatedUnion('type', [
  /** A graph node finished: its latency and its trace data (ids and numbers, never document text). */
  z.object({ type: z.literal('node'), node: z.string(), ms: z.number(), data: z.record(z.string(), z.unknown()).optional() }),
  /** The next piece of the answer's text; the pieces concatenate to the final answer's text. */
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('citations'), citations: z.array(Citation) }),
  /** The run's final record (last). */
  z.object({ type: z.literal('done'), answer: AgentAnswer }),
  /** The run failed for good (last). */
  z.object({ type: z.literal('error'), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type RunEvent = z.infer<typeof RunEvent>;

/** True for the event that ends a run's stream. */
export function isFinalEvent(e: RunEvent): boolean {
  return e.type === 'done' || e.type === 'error';
}

/** The field of a stream entry that holds the event's JSON. */
export const RUN_EVENT_FIELD = 'e';

/** Limits of a run's stream. */
export interface RunStreamLimits {
  /**
   * Entries kept (approximately: `MAXLEN ~`); a run with an LLM writes one per token.
   * @defaultValue 5000
   */
  maxLen?: number;
  /**
   * Seconds the stream lives after its last event: long enough for a late or slow reader.
   * @defaultValue 600
   */
  ttlSeconds?: number;
}

/**
 * Appends one run's events in order, none after the final one; never throws (streaming is best
 * effort: the run's result is the job's).
 */
export interface RunEventPublisher {
  emit(event: RunEvent): void;
  /** Resolves once every event emitted so far is written (or failed to be). */
  flush(): Promise<void>;
}

/**
 * A publisher for `runId`'s stream. Events are written in emit order (one chain of commands), each
 * with XADD MAXLEN ~ and an EXPIRE, so an abandoned stream disappears by itself.
 */
export function createRunEventPublisher(
  redis: Redis,
  prefix: string,
  runId: string,
  opts: RunStreamLimits & { onError?: (err: unknown) => void } = {},
): RunEventPublisher {
  const key = runStreamKey(prefix, runId);
  const maxLen = opts.maxLen ?? 5000;
  const ttl = opts.ttlSeconds ?? 600;
  let chain: Promise<void> = Promise.resolve();
  let ended = false;
  return {
    emit(event) {
      // Nothing after the final event: a parallel node may still finish after the run failed.
      if (ended) return;
      ended = isFinalEvent(event);
      const json = JSON.stringify(RunEvent.parse(event));
      chain = chain.then(async () => {
        try {
          await redis.multi().xadd(key, 'MAXLEN', '~', String(maxLen), '*', RUN_EVENT_FIELD, json).expire(key, ttl).exec();
        } catch (err) {
          opts.onError?.(err);
        }
      });
    },
    flush: () => chain,
  };
}

/** Parses a stream entry's fields (`[field, value, …]`); null for an entry that is not a run event. */
export function parseRunEntry(fields: readonly string[]): RunEvent | null {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] !== RUN_EVENT_FIELD) continue;
    try {
      const parsed = RunEvent.safeParse(JSON.parse(fields[i + 1] as string));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
  return null;
}
