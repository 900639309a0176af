import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { createRunContextStore } from '../../shared/agent/run-context.ts';
import { createTraceStore } from '../../shared/agent/trace.ts';
import type { Ports } from '../../workers/runtime/ports.ts';
import { createRedis } from '../../workers/runtime/ports.ts';
import { DIR_KEY_PREFIX, deleteSource } from '../watcher/local-watcher.ts';
import { DeleteObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { classifyS3Error, createS3Client } from '../../shared/s3/s3.ts';
import { createLogger, type Logger } from '../../shared/telemetry/logger.ts';
import { createBucketSource } from '../watcher/bucket-watcher.ts';
import { sidecarPathOf } from '../watcher/metadata.ts';
import { S3_KEY_PREFIX } from '../watcher/object-keys.ts';
import type { GatewayDeps } from './types.ts';

async function unlinkIfThere(file: string): Promise<void> {
  await unlink(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Gateway dependencies from the process's ports. */
export function gatewayDeps(
  ports: Ports,
  opts: { traceTtlSeconds: number; recordFeedback: GatewayDeps['recordFeedback']; log?: Logger },
): GatewayDeps & { close(): Promise<void> } {
  const { config } = ports;
  const eventsConnection = createRedis(config.redisUrl);
  let client: S3Client | null = null;
  const s3Client = () => (client ??= createS3Client(config.s3));
  const watched = config.watchBucket;
  const bucketSource = watched
    ? createBucketSource({ client: s3Client(), location: watched.location, ports: { ...ports, prefix: config.prefix }, log: opts.log ?? createLogger('silent') })
    : null;
  return {
    redis: ports.redis,
    eventsConnection,
    prefix: config.prefix,
    queues: ports.queues,
    status: ports.status,
    traces: createTraceStore(ports.redis, config.prefix, opts.traceTtlSeconds),
    runContexts: createRunContextStore(ports.redis, config.prefix, opts.traceTtlSeconds),
    recordFeedback: opts.recordFeedback,
    watchDir: config.watchDir,
    artifacts: ports.artifacts,
    bucketNotification: bucketSource && ((body) => bucketSource.handleNotification(body)),
    async deleteDocument(docId) {
      const status = await ports.status.get(docId);
      if (!status || status.state === 'deleted') return false;
      if (status.sourceKey.startsWith(DIR_KEY_PREFIX)) {
        // Remove the file too, or the watcher would register it again on its next start.
        const file = path.join(config.watchDir, status.sourceKey.slice(DIR_KEY_PREFIX.length));
        await unlinkIfThere(file.replace(/\.pdf$/i, '.meta.json'));
        await unlinkIfThere(file);
      }
      const bucket = watched?.location.bucket;
      if (bucket && status.sourceKey.startsWith(`${S3_KEY_PREFIX}${bucket}/`)) {
        // The bucket is the source of truth: remove the object (and its sidecar), as for a file.
        const key = status.sourceKey.slice(`${S3_KEY_PREFIX}${bucket}/`.length);
        for (const k of [key, sidecarPathOf(key)]) {
          await s3Client().send(new DeleteObjectCommand({ Bucket: bucket, Key: k })).catch((err: unknown) => {
            throw classifyS3Error(err, `delete ${k}`);
          });
        }
      }
      await deleteSource({ ...ports, prefix: config.prefix }, status.sourceKey);
      return true;
    },
    async close() {
      eventsConnection.disconnect();
      client?.destroy();
    },
  };
}
