/**
 * The one S3 client factory (AWS S3, MinIO, any S3-compatible server), bucket URLs and error
 * classification, shared by the S3 artifact store and the bucket watcher.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { PermanentError, RetryableError, isQuarryError } from '../errors.ts';

/** How to reach the S3-compatible server. */
export interface S3Settings {
  /** e.g. http://minio:9000; unset for AWS S3. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (`endpoint/bucket/key`): what MinIO and most S3-compatible servers expect. */
  forcePathStyle: boolean;
}

/** A bucket and a key prefix inside it (`s3://bucket/some/prefix`). */
export interface BucketLocation {
  bucket: string;
  /** '' or ends with '/'. */
  prefix: string;
}

/**
 * `s3://bucket[/prefix]` → bucket and prefix.
 * @throws PermanentError `INVALID_CONFIG` naming `variable` for anything else.
 */
export function parseBucketUrl(url: string, variable: string): BucketLocation {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url.trim());
  if (!m) throw new PermanentError('INVALID_CONFIG', `${variable} must be s3://<bucket>[/<prefix>] with a valid bucket name, got ${url}`);
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1] as string, prefix: prefix ? `${prefix}/` : '' };
}

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
