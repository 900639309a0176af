import type { Redis } from 'ioredis';
import type { QueueClient } from '../../core/queues.ts';
import type { ArtifactStore } from '../../shared/artifacts/index.ts';
import type { Config } from '../../shared/config/index.ts';
import type { Embedder } from '../../shared/embed/index.ts';
import type { VectorStore } from '../../shared/store/index.ts';
import type { RunContextStore, TraceStore } from '../../shared/runs/index.ts';
import type { ConnectionLog } from '../../shared/redis/index.ts';
import type { StatusStore } from '../../shared/status/index.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import type { BucketEvent } from '../../core/sources/index.ts';
import type { ApiKeys } from './auth.ts';

/**
 * The process's ports the gateway starts from (a process's `Ports`, workers/runtime/ports.ts, has
 * them all): its settings, and what search, uploads and retries read. Its Redis clients, queue
 * client and status store are its own, on a fast-failing connection (see gatewayDeps).
 */
export interface GatewayPorts {
  config: Config;
  artifacts: ArtifactStore;
  store: VectorStore;
  embedder: Embedder;
}

/** Everything the gateway talks to; it holds no state of its own. */
export interface GatewayDeps {
  /** Request paths' client: no offline queue, short command timeout (see createRequestRedis). */
  redis: Redis;
  /** A connection QueueEvents may block on (not shared with commands). */
  eventsConnection: Redis;
  /** Where Redis and BullMQ connection errors are logged, one line per change of state. */
  connectionLog: ConnectionLog;
  /** Where a request answered 500 is logged, once, with its cause. */
  log: Logger;
  prefix: string;
  queues: QueueClient;
  status: StatusStore;
  traces: TraceStore;
  runContexts: RunContextStore;
  /** Turns feedback on a run into memory updates; false when there is nothing to update. */
  recordFeedback(input: { runId: string; useful: string[]; verdict: 'useful' | 'not_useful' }): Promise<{ enqueued: boolean; chunks: number }>;
  /** Deletes a registered document (its source file too, when it sits in the watched folder). */
  deleteDocument(docId: string): Promise<boolean>;
  /** Stored sources, for retrying failed documents (routes/retry.ts). */
  artifacts: ArtifactStore;
  watchDir: string;
  /** Handles an event notification of the watched bucket; null when no bucket is watched. */
  bucketNotification: ((body: unknown) => Promise<BucketEvent[]>) | null;
  /** What search reads (the MCP tools at /mcp): the store, the query embedder, the default hybrid weight. */
  search: { store: VectorStore; embedder: Embedder; defaultAlpha: number };
}

export interface GatewayOptions {
  keys: ApiKeys;
  /** How long `POST /v1/query` waits for an answer before answering 202 with the run id. @defaultValue 10000 */
  queryTimeoutMs: number;
  /** Largest PDF `POST /v1/documents` accepts, in bytes (MAX_UPLOAD_BYTES: the body is refused unread past it). */
  maxUploadBytes: number;
  /**
   * Largest PDF the watchers accept (MAX_PDF_BYTES): an upload over it is refused TOO_LARGE with
   * the watcher's own message, so both ways in answer alike. @defaultValue no limit beyond maxUploadBytes
   */
  maxSourceBytes?: number;
  /**
   * Requests per minute per API key (per client IP without keys), counted in Redis so replicas
   * share it; 0 turns the limit off. @defaultValue 0
   */
  rateLimitPerMin?: number;
  newRunId?: () => string;
}

