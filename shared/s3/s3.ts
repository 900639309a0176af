/**
 * The one S3 client factory (AWS S3, MinIO, any S3-compatible server) and error classification,
 * shared by the S3 artifact store and the bucket watcher.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config/index.ts';
import { PermanentError, RetryableError, isQuarryError } from '../errors.ts';

// Settings, bucket URLs and their parsing live in shared/config/bucket-url.ts, free of the AWS
// SDK, so that loading config does not load the SDK.

export function createS3Client(s: S3Settings): S3Client {
  return new S3Client({
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    // Checksums only where S3 requires them: S3-compatible servers do not all speak the newer
    // streaming-checksum uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** True for a missing key (404, NoSuchKey, NotFound). */
export function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404;
}

/**
 * An S3 failure as a Quarry error: 4xx other than 408/429 will fail again (a wrong bucket,
 * credentials, a refused key); timeouts, throttling, 5xx and network failures may pass.
 */
export function classifyS3Error(err: unknown, what: string): PermanentError | RetryableError {
  if (isQuarryError(err)) return err;
  const status = statusOf(err);
  const message = `s3 ${what}: ${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)}`;
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return new PermanentError('STORE_REJECTED', message, { cause: err });
  }
  return new RetryableError('STORE_UNAVAILABLE', message, { cause: err });
}
