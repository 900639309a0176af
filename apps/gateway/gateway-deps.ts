import { createRunContextStore, createTraceStore, DEFAULT_TRACE_MAX_COUNT } from '../../shared/runs/index.ts';
import { createQueueClient, createRedis, type QueueClient } from '../../core/queues.ts';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, createS3Bucket } from '../../shared/s3/index.ts';
import { createDocumentDeleter } from '../../core/documents/index.ts';
import { createBucketSource } from '../../core/sources/index.ts';
import { createLogger, type Logger } from '../../shared/telemetry/index.ts';
import { createConnectionLog, watchConnection, type ConnectionLog } from '../../shared/redis/index.ts';
import { createStatusStore } from '../../shared/status/index.ts';
import type { Queue } from 'bullmq';
import { scaledAlphas } from '../../shared/retrieval/index.ts';
import { createRequestRedis } from './request-redis.ts';
import type { GatewayDeps, GatewayPorts } from './types.ts';

/**
 * A queue client whose every BullMQ Queue reports its errors to `clog` (a Queue without an 'error'
 * listener prints each connection error with console.error).
 */
function watchedQueues(inner: QueueClient, source: string, clog: ConnectionLog): QueueClient {
  const watched = new WeakSet<Queue>();
  const queue: QueueClient['queue'] = (def) => {
    const q = inner.queue(def);
    if (!watched.has(q)) {
      watched.add(q);
      watchConnection(q, source, clog);
    }
    return q;
  };
  return {
    queue,
    enqueue: (def, payload) => (queue(def), inner.enqueue(def, payload)),
    counts: (def) => (queue(def), inner.counts(def)),
    close: () => inner.close(),
  };
}

/**
 * Gateway dependencies from the process's ports. Request paths get their own Redis client that
 * fails fast (see createRequestRedis) instead of the workers' client, which waits out outages.
 */
export function gatewayDeps(
  ports: GatewayPorts,
  opts: { traceTtlSeconds: number; traceMaxCount?: number; recordFeedback: GatewayDeps['recordFeedback']; log?: Logger },
): GatewayDeps & { close(): Promise<void> } {
  const { config } = ports;
  const log = opts.log ?? createLogger('silent');
  const connectionLog = createConnectionLog(log);
  const redis = createRequestRedis(config.redisUrl);
  watchConnection(redis, 'gateway-redis', connectionLog, { readyEvents: true });
  const queues = watchedQueues(createQueueClient(redis, config.prefix), 'gateway-redis', connectionLog);
  const status = createStatusStore(redis, config.prefix);
  // What deleting a document and bucket notifications touch, on the fast-failing client too.
  const requestPorts = { ...ports, redis, queues, status, prefix: config.prefix };
  const eventsConnection = createRedis(config.redisUrl);
  watchConnection(eventsConnection, 'gateway-events', connectionLog, { readyEvents: true });
  const traceMaxCount = opts.traceMaxCount ?? DEFAULT_TRACE_MAX_COUNT;
  let client: S3Client | null = null;
  const s3Client = () => (client ??= createS3Client(config.s3));
  const watched = config.watchBucket;
  const bucketSource = watched
    ? createBucketSource({ bucket: createS3Bucket(s3Client(), watched.location), location: watched.location, ports: requestPorts, log, maxBytes: config.extract.maxBytes })
    : null;
  return {
    redis,
    eventsConnection,
    connectionLog,
    log,
    prefix: config.prefix,
    queues,
    status,
    traces: createTraceStore(redis, config.prefix, opts.traceTtlSeconds, traceMaxCount),
    runContexts: createRunContextStore(redis, config.prefix, opts.traceTtlSeconds, traceMaxCount),
    recordFeedback: opts.recordFeedback,
    watchDir: config.watchDir,
    artifacts: ports.artifacts,
    bucketNotification: bucketSource && ((body) => bucketSource.handleNotification(body)),
    search: { store: ports.store, embedder: ports.embedder, defaultAlpha: scaledAlphas(config.retrieval.alphaScale).defaultAlpha },
    deleteDocument: createDocumentDeleter({ ports: requestPorts, watchDir: config.watchDir, bucket: watched ? { name: watched.location.bucket, client: s3Client } : null }),
    async close() {
      await queues.close();
      eventsConnection.disconnect();
      redis.disconnect();
      client?.destroy();
    },
  };
}
