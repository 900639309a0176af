import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { DocId, Version } from '../domain/index.ts';
import type { BucketLocation } from '../config/index.ts';
import { classifyS3Error, isNotFound } from '../s3/index.ts';
import { artifactMissing, checkArtifactRef, parseArtifactJson, type ArtifactName, type ArtifactStore } from './artifact-store.ts';

/** Keys per DeleteObjects request (the S3 maximum). */
const DELETE_BATCH = 1000;

/**
 * ArtifactStore on an S3-compatible bucket, so workers on different pods share stage outputs.
 * Keys are `<prefix><doc_id>/<version>/<name>`; a PUT replaces an object whole, so a reader
 * never sees half an artifact.
 */
export function createS3ArtifactStore(opts: { client: S3Client; location: BucketLocation }): ArtifactStore {
  const { client } = opts;
  const { bucket, prefix } = opts.location;
  const keyOf = (docId: string, version: string, name: ArtifactName) => {
    checkArtifactRef(docId, version, name);
    return `${prefix}${docId}/${version}/${name}`;
  };
  const docPrefix = (docId: string) => `${prefix}${DocId.parse(docId)}/`;

  async function put(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
    try {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    } catch (err) {
      throw classifyS3Error(err, `put ${key}`);
    }
  }

  async function get(docId: string, version: string, name: ArtifactName): Promise<Uint8Array> {
    const key = keyOf(docId, version, name);
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return (await res.Body?.transformToByteArray()) ?? new Uint8Array();
    } catch (err) {
      if (isNotFound(err)) throw artifactMissing(docId, version, name);
      throw classifyS3Error(err, `get ${key}`);
    }
  }

  /** Every key under `p`, page by page. */
  async function* keysUnder(p: string): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: p, ContinuationToken: token })).catch((err: unknown) => {
        throw classifyS3Error(err, `list ${p}`);
      });
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  return {
    async putBytes(docId, version, name, bytes) {
      await put(keyOf(docId, version, name), bytes, 'application/octet-stream');
    },
    getBytes: get,
    async putJson(docId, version, name, value) {
      await put(keyOf(docId, version, name), JSON.stringify(value), 'application/json');
    },
    async getJson(docId, version, name) {
      return parseArtifactJson(new TextDecoder().decode(await get(docId, version, name)), docId, name);
    },
    async exists(docId, version, name) {
      const key = keyOf(docId, version, name);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw classifyS3Error(err, `head ${key}`);
      }
    },
    async listVersions(docId) {
      const p = docPrefix(docId);
      const versions = new Set<string>();
      for await (const key of keysUnder(p)) {
        const v = key.slice(p.length).split('/')[0] ?? '';
        if (Version.safeParse(v).success) versions.add(v);
      }
      return [...versions].sort();
    },
    async deleteDoc(docId, deleteOpts) {
      const p = docPrefix(docId);
      const keep = deleteOpts?.exceptVersion ? `${p}${deleteOpts.exceptVersion}/` : null;
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const res = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })).catch((err: unknown) => {
          throw classifyS3Error(err, `delete under ${p}`);
        });
        if (res.Errors?.length) throw classifyS3Error(Object.assign(new Error(res.Errors.map((e) => `${e.Key}: ${e.Code}`).join(', ')), { $metadata: { httpStatusCode: 500 } }), `delete under ${p}`);
        batch = [];
      };
      for await (const key of keysUnder(p)) {
        if (keep && key.startsWith(keep)) continue;
        batch.push(key);
        if (batch.length === DELETE_BATCH) await flush();
      }
      await flush();
    },
  };
}
