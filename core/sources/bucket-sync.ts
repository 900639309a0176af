/**
 * Keeping a watched bucket and Quarry in step: each PDF's fingerprint (its tag and its sidecar's)
 * is compared with a cursor kept in Redis, so a restart or another replica picks up exactly where
 * the last scan left off. New or changed PDFs are registered (unchanged bytes and metadata are
 * never re-processed), removed ones deleted. Event notifications (AWS S3 or MinIO webhook JSON,
 * posted to the gateway) are handled the same way at once, without waiting for a poll; the
 * watcher's poller (apps/watcher/bucket-watcher.ts) calls `scan`.
 *
 * An object is never downloaded before its size is known to be within MAX_PDF_BYTES (from the
 * listing, or a stat for a notification); over it, the document is recorded `failed` with
 * TOO_LARGE. The SourceBucket stops a download that runs over the limit or has no `%PDF-` header
 * (NOT_A_PDF). Sidecars are read up to 1 MiB.
 */
import { z } from 'zod';
import { sha256Hex, type DocumentMeta } from '../../shared/domain/index.ts';
import { describeError, PermanentError } from '../../shared/errors.ts';
import { bucketCursorKey } from '../../shared/redis/index.ts';
import type { BucketLocation } from '../../shared/config/index.ts';
import {
  parseSidecar,
  sidecarPathOf,
  checkObjectKey,
  isPdfKey,
  isSidecarKey,
  objectKeyProblem,
  pdfKeyOfSidecar,
  MAX_METADATA_BYTES,
  sourceProblem,
  unreadVersion,
  type SourceBucket,
  type SourceObject,
  type SourceLimits,
  type SourceProblem,
} from '../../shared/sources/index.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { deleteSource } from './delete-source.ts';
import { recordRejectedSource, registerSource, type RegisterPorts } from './register-source.ts';
import { S3_KEY_PREFIX } from './source-keys.ts';

export type BucketEvent =
  | { kind: 'registered' | 'unchanged'; key: string; docId: string }
  | { kind: 'deleted'; key: string; docId: string | null }
  | { kind: 'rejected'; key: string; code: string; message: string };

export interface BucketSource {
  /** Lists the bucket once and handles every difference from the cursor. */
  scan(): Promise<BucketEvent[]>;
  /** Handles an S3 / MinIO event notification. @throws PermanentError INVALID_PAYLOAD for a malformed body or a refused key. */
  handleNotification(body: unknown): Promise<BucketEvent[]>;
}

/** One object as the cursor remembers it: the PDF's tag and its sidecar's (or none). */
const fingerprint = (pdfTag: string, sidecarTag: string | undefined) => `${pdfTag}|${sidecarTag ?? ''}`;

/** The bucket logic without a timer: scans and notifications (the gateway uses it for the latter). */
export function createBucketSource(opts: {
  /** The bucket's objects (`createS3Bucket`, shared/sources/s3-bucket.ts). */
  bucket: SourceBucket;
  /** Its name and prefix: they name the documents' source keys and the cursor, and filter notifications. */
  location: BucketLocation;
  ports: RegisterPorts;
  log: Logger;
  /** Larger objects are never downloaded (MAX_PDF_BYTES, `config.extract.maxBytes`). @defaultValue 104857600 (100 MiB) */
  maxBytes?: SourceLimits['maxBytes'];
  clock?: () => Date;
}): BucketSource {
  const { bucket: objects, ports, log } = opts;
  const limits: SourceLimits = { maxBytes: opts.maxBytes ?? 100 * 1024 * 1024 };
  const { bucket, prefix } = opts.location;
  const clock = opts.clock ?? (() => new Date());
  const cursorKey = bucketCursorKey(ports.prefix, bucket, prefix);
  const sourceKeyOf = (key: string) => `${S3_KEY_PREFIX}${bucket}/${key}`;
  const uriOf = (key: string) => objects.where(key);

  /** Records a PDF refused before (or while) downloading it as a failed document, once per fingerprint. */
  async function refuseObject(key: string, print: string, seen: string, problem: SourceProblem): Promise<BucketEvent> {
    await recordRejectedSource(ports, { sourceKey: sourceKeyOf(key), version: unreadVersion(problem.code, seen), error: problem });
    await ports.redis.hset(cursorKey, key, print);
    log.warn('bucket object refused', { key, code: problem.code, reason: problem.message });
    return { kind: 'rejected', key, ...problem };
  }

  /** The sidecar's text, or why it was not read (over {@link MAX_METADATA_BYTES}); null when there is none. */
  async function getSidecar(key: string): Promise<{ tag: string; text: string | null; error?: PermanentError } | null> {
    const got = await objects.read(key, { maxBytes: MAX_METADATA_BYTES, pdf: false });
    if (!got) return null;
    if (got.kind !== 'read') return { tag: got.tag, text: null, error: new PermanentError('INVALID_METADATA', `${uriOf(key)} is over the ${MAX_METADATA_BYTES}-byte limit for metadata`) };
    return { tag: got.tag, text: new TextDecoder().decode(got.bytes) };
  }

  /**
   * Registers one PDF (and its sidecar) if its fingerprint changed (null: it did not); records it
   * in the cursor. `listed` is the PDF as the listing showed it; without it the PDF is stat-ed.
   */
  async function ingest(key: string, known: string | undefined, listed?: SourceObject): Promise<BucketEvent | null> {
    const sourceKey = sourceKeyOf(key);
    const info = listed ?? (await objects.stat(key));
    if (!info) return remove(key);
    const sidecarKey = sidecarPathOf(key);
    const sidecar = await getSidecar(sidecarKey);
    const print = fingerprint(info.tag, sidecar?.tag);
    if (known === print) return null;
    // Size first: an oversize PDF is never downloaded.
    const sized = sourceProblem({ size: info.size }, limits, uriOf(key));
    if (sized) return refuseObject(key, print, `${info.tag}|${info.size}`, sized);
    const pdf = await objects.read(key, { maxBytes: limits.maxBytes, pdf: true });
    if (!pdf) return remove(key);
    if (pdf.kind === 'refused') return refuseObject(key, print, pdf.seen, pdf.problem);
    let meta: DocumentMeta = {};
    try {
      if (sidecar?.error) throw sidecar.error;
      if (sidecar && sidecar.text !== null) meta = parseSidecar(sidecar.text, uriOf(sidecarKey));
    } catch (err) {
      const error = describeError(err);
      await recordRejectedSource(ports, { sourceKey, version: sha256Hex(pdf.bytes), error });
      await ports.redis.hset(cursorKey, key, print);
      return { kind: 'rejected', key, ...error };
    }
    const result = await registerSource(ports, { sourceKey, sourceUri: uriOf(key), collector: 'bucket-watcher', bytes: pdf.bytes, meta, fetchedAt: clock() });
    await ports.redis.hset(cursorKey, key, print);
    return { kind: result.action, key, docId: result.docId };
  }

  async function remove(key: string): Promise<BucketEvent> {
    const docId = await deleteSource(ports, sourceKeyOf(key));
    await ports.redis.hdel(cursorKey, key);
    return { kind: 'deleted', key, docId };
  }

  /** A refused key is reported once per tag, not on every scan. */
  async function refuse(key: string, tag: string, known: string | undefined): Promise<BucketEvent | null> {
    const print = `refused|${tag}`;
    if (known === print) return null;
    await ports.redis.hset(cursorKey, key, print);
    const message = `object key ${JSON.stringify(key)} rejected: it ${objectKeyProblem(key)}`;
    log.warn('bucket object refused', { key, reason: message });
    return { kind: 'rejected', key, code: 'INVALID_PAYLOAD', message };
  }

  async function guarded(key: string, task: () => Promise<BucketEvent | null>): Promise<BucketEvent | null> {
    try {
      return await task();
    } catch (err) {
      const { code, message } = describeError(err);
      log.error('bucket object failed', { key, code, error: message });
      return { kind: 'rejected', key, code, message };
    }
  }

  return {
    async scan() {
      const [found, cursor] = await Promise.all([objects.list(), ports.redis.hgetall(cursorKey)]);
      const listed = new Map(found.map((o) => [o.key, o]));
      const events: (BucketEvent | null)[] = [];
      for (const [key, info] of listed) {
        if (!isPdfKey(key)) continue;
        const known = cursor[key];
        if (objectKeyProblem(key)) {
          events.push(await refuse(key, info.tag, known));
          continue;
        }
        if (known === fingerprint(info.tag, listed.get(sidecarPathOf(key))?.tag)) continue;
        events.push(await guarded(key, () => ingest(key, known, info)));
      }
      for (const key of Object.keys(cursor)) {
        if (!listed.has(key)) events.push(await guarded(key, () => remove(key)));
      }
      return events.filter((e): e is BucketEvent => e !== null);
    },

    async handleNotification(body) {
      const records = parseNotification(body);
      const events: BucketEvent[] = [];
      for (const r of records) {
        if (r.bucket !== bucket || !r.key.startsWith(prefix)) continue;
        checkObjectKey(r.key);
        const pdfKey = isSidecarKey(r.key) ? pdfKeyOfSidecar(r.key) : r.key;
        if (!isPdfKey(pdfKey)) continue;
        const known = (await ports.redis.hget(cursorKey, pdfKey)) ?? undefined;
        const removedPdf = r.removed && pdfKey === r.key;
        const event = await guarded(pdfKey, () => (removedPdf ? remove(pdfKey) : ingest(pdfKey, known)));
        if (event) events.push(event);
      }
      return events;
    },
  };
}

const S3Record = z.object({
  eventName: z.string(),
  s3: z.object({ bucket: z.object({ name: z.string() }), object: z.object({ key: z.string() }) }),
});
/** AWS S3 notifications and MinIO webhooks share this shape (MinIO adds EventName and Key around it). */
const Notification = z.object({ Records: z.array(S3Record) });

/**
 * The records of an S3 / MinIO event notification: bucket, decoded key, created or removed.
 * @throws PermanentError `INVALID_PAYLOAD` for any other body.
 */
export function parseNotification(body: unknown): { bucket: string; key: string; removed: boolean }[] {
  const parsed = Notification.safeParse(body);
  if (!parsed.success) throw new PermanentError('INVALID_PAYLOAD', `not an S3 event notification: ${parsed.error.issues[0]?.message ?? 'invalid'} (expected {"Records": [{"eventName", "s3": {"bucket": {"name"}, "object": {"key"}}}]})`);
  return parsed.data.Records.map((r) => {
    let key: string;
    try {
      // Keys arrive URL-encoded, with "+" for spaces.
      key = decodeURIComponent(r.s3.object.key.replace(/\+/g, ' '));
    } catch {
      throw new PermanentError('INVALID_PAYLOAD', `object key ${JSON.stringify(r.s3.object.key)} is not URL-encoded`);
    }
    return { bucket: r.s3.bucket.name, key, removed: /^(s3:)?ObjectRemoved/.test(r.eventName) };
  });
}
