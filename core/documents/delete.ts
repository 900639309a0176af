import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { sidecarPathOf } from '../../shared/sources/index.ts';
import { deleteSource, DIR_KEY_PREFIX, S3_KEY_PREFIX, type RegisterPorts } from '../sources/index.ts';

async function unlinkIfThere(file: string): Promise<void> {
  await unlink(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/**
 * Deleting a registered document (`DELETE /v1/documents/:id`): its source goes too, when it sits
 * in the watched folder or the watched bucket, or the watcher would register it again; then its
 * status turns `deleting` and the delete job removes its chunks and artifacts.
 * @returns a function answering false for an unknown or already deleted document.
 */
export function createDocumentDeleter(deps: {
  ports: Pick<RegisterPorts, 'status' | 'queues'>;
  watchDir: string;
  /** The watched bucket's name, and its client (made on first use); null when none is watched. */
  bucket: { name: string; client(): S3Client } | null;
}): (docId: string) => Promise<boolean> {
  return async (docId) => {
    const record = await deps.ports.status.get(docId);
    if (!record || record.state === 'deleted') return false;
    if (record.sourceKey.startsWith(DIR_KEY_PREFIX)) {
      // Remove the file too, or the watcher would register it again on its next start.
      const file = path.join(deps.watchDir, record.sourceKey.slice(DIR_KEY_PREFIX.length));
      await unlinkIfThere(file.replace(/\.pdf$/i, '.meta.json'));
      await unlinkIfThere(file);
    }
    const bucket = deps.bucket;
    if (bucket && record.sourceKey.startsWith(`${S3_KEY_PREFIX}${bucket.name}/`)) {
      // The bucket is the source of truth: remove the object (and its sidecar), as for a file.
      const key = record.sourceKey.slice(`${S3_KEY_PREFIX}${bucket.name}/`.length);
      // The AWS SDK is imported here, on the first deletion from a bucket: a process that reads
      // documents through this folder (quarry retry, quarry mcp) never loads it.
      const [{ DeleteObjectCommand }, { classifyS3Error }] = await Promise.all([import('@aws-sdk/client-s3'), import('../../shared/s3/index.ts')]);
      for (const k of [key, sidecarPathOf(key)]) {
        await bucket
          .client()
          .send(new DeleteObjectCommand({ Bucket: bucket.name, Key: k }))
          .catch((err: unknown) => {
            throw classifyS3Error(err, `delete ${k}`);
          });
      }
    }
    await deleteSource(deps.ports, record.sourceKey);
    return true;
  };
}
