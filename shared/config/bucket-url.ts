/**
 * How to reach an S3-compatible server and where a bucket location points: plain data and a
 * parser, without the AWS SDK (config imports these; only s3.ts loads the SDK).
 */
import { PermanentError } from '../errors.ts';

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
