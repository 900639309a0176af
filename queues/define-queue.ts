import { z } from 'zod';
import { DocId, Version } from '../shared/domain/index.ts';

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

/**
 * How a queue's jobs move a document through its status record: declared by the queue (the ingest
 * stages), never guessed from the shape of a payload. The runtime marks such a job's document
 * running, hands it to the next stage or fails it; a queue without one (delete, facets, memory,
 * agent) leaves status records to its handler.
 */
export interface DocumentTracking<T = unknown> {
  /** The status record's name of this queue's stage (`ingest-chunk` → `chunk`). */
  readonly stage: string;
  /** The document registration a job works on. */
  document(payload: T): TrackedDocument;
}

/** One queue: its name, what goes in, what comes out, its job policy and the stage after it. */
export interface QueueDefinition<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: P;
  readonly result: R;
  readonly policy: QueueJobPolicy;
  /** The queue the runtime enqueues into after a job of this one succeeds, if any. */
  readonly next?: QueueDefinition;
  /** Present when this queue's jobs advance a document's status record (see {@link DocumentTracking}). */
  readonly tracks?: DocumentTracking<z.infer<P>>;
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

/** The registration a tracked job works on: which document, which version, which generation. */
export type TrackedDocument = IngestPayload;

/**
 * What a job completes with when it may not do its work: its document was re-registered or
 * deleted since (superseded), or its stage was already handed on. A handler may return it too,
 * when its queue's result schema admits it (upsert's does): the runtime then hands nothing on.
 */
export const Superseded = z.object({ superseded: z.literal(true) });
export type Superseded = z.infer<typeof Superseded>;

/** The result a runtime-skipped job completes with. */
export const SUPERSEDED: Superseded = { superseded: true };

/** True when a (validated) result says its job was superseded. */
export function isSuperseded(result: unknown): boolean {
  return Superseded.safeParse(result).success;
}

export function ingestJobId(queueName: string, p: IngestPayload): string {
  return `${queueName}-${p.docId}-${p.version}-g${p.gen}`;
}

export function defineQueue<P extends z.ZodType, R extends z.ZodType>(def: {
  name: string;
  payload: P;
  result: R;
  policy?: Partial<QueueJobPolicy>;
  next?: QueueDefinition;
  tracks?: DocumentTracking<z.infer<P>>;
  jobId: (payload: z.infer<P>) => string;
}): QueueDefinition<P, R> {
  if (!/^[a-z][a-z0-9-]*$/.test(def.name)) throw new TypeError(`queue name ${def.name}: lowercase and "-" only`);
  return {
    name: def.name,
    payload: def.payload,
    result: def.result,
    policy: { ...DEFAULT_POLICY, ...def.policy },
    next: def.next,
    tracks: def.tracks,
    jobId: (p) => {
      const id = def.jobId(p);
      if (id.includes(':')) throw new TypeError(`job id may not contain ':' (${id})`);
      return id;
    },
  };
}

/** The status record's stage name of an ingest queue: `ingest-chunk` → `chunk`. */
export function ingestStageName(queueName: string): string {
  return queueName.replace(/^ingest-/, '');
}

/**
 * An ingest stage queue: IngestPayload in, the given result out, and its jobs track their
 * document (stage `ingest-<stage>` → `<stage>` on the status record).
 */
export function defineIngestQueue<R extends z.ZodType>(name: string, result: R, next?: QueueDefinition, policy?: Partial<QueueJobPolicy>) {
  const tracks: DocumentTracking<IngestPayload> = { stage: ingestStageName(name), document: ({ docId, version, gen }) => ({ docId, version, gen }) };
  return defineQueue({ name, payload: IngestPayload, result, next, policy, tracks, jobId: (p) => ingestJobId(name, p) });
}
