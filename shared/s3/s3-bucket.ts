/**
 * The SourceBucket of an S3-compatible bucket (AWS S3, MinIO, R2…), below one prefix. An object is
 * never downloaded past the limit asked: its declared length is checked first, then the bytes as
 * they arrive, and a download stops (closing the connection) as soon as the body runs over the
 * limit or its first KiB has no `%PDF-` header.
 */
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { BucketLocation } from '../config/index.ts';
import { classifyS3Error, isNotFound } from './s3.ts';
import { PDF_HEADER_WINDOW, sourceProblem, type SourceBucket, type SourceObject, type SourceProblem } from '../sources/index.ts';

type BodyRead = { kind: 'read'; bytes: Uint8Array } | { kind: 'over'; seen: number } | { kind: 'problem'; problem: SourceProblem };

/**
 * Reads an object's body, stopping (which closes the connection) as soon as it runs over `limit`
 * bytes, or as soon as its first {@link PDF_HEADER_WINDOW} bytes fail `checkHead`.
 */
export async function readBodyCapped(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limit: number, checkHead?: (head: Uint8Array) => SourceProblem | null): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let seen = 0;
  let headChecked = !checkHead;
  for await (const chunk of body) {
    seen += chunk.byteLength;
    if (seen > limit) return { kind: 'over', seen };
    chunks.push(chunk);
    if (!headChecked && seen >= PDF_HEADER_WINDOW) {
      headChecked = true;
      const problem = checkHead?.(Buffer.concat(chunks));
      if (problem) return { kind: 'problem', problem };
    }
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  const problem = headChecked ? null : checkHead?.(bytes);
  return problem ? { kind: 'problem', problem } : { kind: 'read', bytes };
}

const isAsyncIterable = (v: unknown): v is AsyncIterable<Uint8Array> => typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

/** The SourceBucket of `location` (its bucket and key prefix) through `client`. */
export function createS3Bucket(client: S3Client, location: BucketLocation): SourceBucket {
  const { bucket, prefix } = location;
  const where = (key: string) => `s3://${bucket}/${key}`;
  return {
    where,
    async list() {
      const out: SourceObject[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })).catch((err: unknown) => {
          throw classifyS3Error(err, `list s3://${bucket}/${prefix}`);
        });
        for (const o of page.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: o.Size ?? 0, tag: o.ETag ?? '' });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async stat(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { key, size: res.ContentLength ?? 0, tag: res.ETag ?? '' };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw classifyS3Error(err, `head ${key}`);
      }
    },
    async read(key, limits) {
      let res;
      try {
        res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (err) {
        if (isNotFound(err)) return null;
        throw classifyS3Error(err, `get ${key}`);
      }
      const tag = res.ETag ?? '';
      const declared = res.ContentLength ?? 0;
      const body = res.Body;
      const over = (size: number) => ({
        kind: 'refused' as const,
        problem: sourceProblem({ size }, limits, where(key)) ?? { code: 'TOO_LARGE' as const, message: `${where(key)} is over the limit` },
        size,
        tag,
        seen: `${tag}|${size}`,
      });
      if (declared > limits.maxBytes) {
        // Closes the connection before the body is read.
        if (body && 'destroy' in body && typeof body.destroy === 'function') body.destroy();
        return over(declared);
      }
      const checkHead = limits.pdf ? (head: Uint8Array) => sourceProblem({ size: declared, head }, limits, where(key)) : undefined;
      // Node's SDK gives a stream; elsewhere the declared length was checked above.
      const read = await readBodyCapped(isAsyncIterable(body) ? body : [(await body?.transformToByteArray()) ?? new Uint8Array()], limits.maxBytes, checkHead);
      if (read.kind === 'over') return over(read.seen);
      if (read.kind === 'problem') return { kind: 'refused', problem: read.problem, size: declared, tag, seen: `${tag}|${declared}` };
      return { kind: 'read', bytes: read.bytes, size: declared, tag };
    },
  };
}
