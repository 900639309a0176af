import { z } from 'zod';
import { DocId, Version } from '../shared/domain/ids.ts';

/** How a queue's jobs are retried and kept. */
export interface QueueJobPolicy {
  /** Tries in all, the first included. @defaultValue 5 */
  attempts: number;
  /** First retry delay; each further retry doubles it. @defaultValue 1000 */
  backoffMs: number;
  /** Completed jobs kept for inspection (count) and for how long (seconds). */
  keepCompleted: { count: number; age: number };
  /** Failed jobs kept (count) and for how long (seconds). */
  keepFailed: { count: number; age: number };
}

/** One queue: its name, what goes in, what comes out, its job policy and the stage after it. */
export interface QueueDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: P;
  readonly result: R;
  readonly policy: QueueJobPolicy;
  /** The queue the runtime enqueues into after a job of this one succeeds, if any. */
  readonly next?: QueueDefinition;
  /** Deterministic job id for a payload (never contains `:`). */
  jobId(payload: z.infer<P>): string;
}

export const DEFAULT_POLICY: QueueJobPolicy = {
  attempts: 5,
  backoffMs: 1000,
  keepCompleted: { count: 5000, age: 7 * 24 * 3600 },
  keepFailed: { count: 10_000, age: 30 * 24 * 3600 },
};

/**
 * Payload of every ingest stage: which document version, and which registration generation.
 * `gen` grows when a document is deleted and registered again, so its jobs get fresh ids even
 * when the bytes (and so the version) are the same as before.
 */
export const IngestPayload = z.object({ docId: DocId, version: Version, gen: z.number().int().nonnegative() });
export type IngestPayload = z.infer<typeof IngestPayload>;

export function ingestJobId(queueName: string, p: IngestPayload): string {
  return `${queueName}-${p.docId}-${p.version}-g${p.gen}`;
}

export function defineQueue<P extends z.ZodType, R extends z.ZodType>(def: {
  name: string;
  payload: P;
  result: R;
  policy?: Partial<QueueJobPolicy>;
  next?: QueueDefinition;
  jobId: (payload: z.infer<P>) => string;
}): QueueDefinition<P, R> {
  if (!/^[a-z][a-z0-9-]*$/.test(def.name)) throw new TypeError(`queue name ${def.name}: lowercase and "-" only`);
  return {
    name: def.name,
    payload: def.payload,
    result: def.result,
    policy: { ...DEFAULT_POLICY, ...def.policy },
    next: def.next,
    jobId: (p) => {
      const id = def.jobId(p);
      if (id.includes(':')) throw new TypeError(`job id may not contain ':' (${id})`);
      return id;
    },
  };
}

/** An ingest stage queue: IngestPayload in, the given result out. */
export function defineIngestQueue<R extends z.ZodType>(name: string, result: R, next?: QueueDefinition, policy?: Partial<QueueJobPolicy>) {
  return defineQueue({ name, payload: IngestPayload, result, next, policy, jobId: (p) => ingestJobId(name, p) });
}
