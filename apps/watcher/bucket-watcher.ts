/**
 * Watches an S3-compatible bucket: lists it every `pollMs` and compares each PDF's fingerprint
 * (its ETag and its sidecar's) with a cursor kept in Redis, so a restart or another replica picks
 * up exactly where the last scan left off. New or changed PDFs are registered (unchanged bytes and
 * metadata are never re-processed), removed ones deleted. Event notifications (AWS S3 or MinIO
 * webhook JSON, posted to the gateway) are handled the same way at once, without waiting for a poll.
 */
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import type { DocumentMeta } from '../../shared/domain/index.ts';
import { describeError, PermanentError } from '../../shared/errors.ts';
import { classifyS3Error, isNotFound, type BucketLocation } from '../../shared/s3/s3.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import { deleteSource } from './local-watcher.ts';
import { parseSidecar, sidecarPathOf } from './metadata.ts';
import { S3_KEY_PREFIX, checkObjectKey, isPdfKey, isSidecarKey, objectKeyProblem, pdfKeyOfSidecar } from './object-keys.ts';
import { recordRejectedSource, registerSource, type RegisterPorts } from './register-source.ts';

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

/** One object as the cursor remembers it: the PDF's ETag and its sidecar's (or none). */
const fingerprint = (pdfEtag: string, sidecarEtag: string | undefined) => `${pdfEtag}|${sidecarEtag ?? ''}`;

/** The bucket logic without a timer: scans and notifications (the gateway uses it for the latter). */
export function createBucketSource(opts: { client: S3Client; location: BucketLocation; ports: RegisterPorts; log: Logger; clock?: () => Date }): BucketSource {
  const { client, ports, log } = opts;
  const { bucket, prefix } = opts.location;
  const clock = opts.clock ?? (() => new Date());
  const cursorKey = `${ports.prefix}:bucket-cursor:${bucket}/${prefix}`;
  const sourceKeyOf = (key: string) => `${S3_KEY_PREFIX}${bucket}/${key}`;

  async function getObject(key: string): Promise<{ bytes: Uint8Array; etag: string } | null> {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { bytes: (await res.Body?.transformToByteArray()) ?? new Uint8Array(), etag: res.ETag ?? '' };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw classifyS3Error(err, `get ${key}`);
    }
  }

  async function listAll(): Promise<Map<string, string>> {
    const etags = new Map<string, string>();
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })).catch((err: unknown) => {
        throw classifyS3Error(err, `list s3://${bucket}/${prefix}`);
      });
      for (const o of page.Contents ?? []) if (o.Key) etags.set(o.Key, o.ETag ?? '');
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return etags;
  }

  /** Registers one PDF (and its sidecar) if its fingerprint changed (null: it did not); records it in the cursor. */
  async function ingest(key: string, known: string | undefined): Promise<BucketEvent | null> {
    const sourceKey = sourceKeyOf(key);
    const pdf = await getObject(key);
    if (!pdf) return remove(key);
    const sidecar = await getObject(sidecarPathOf(key));
    const print = fingerprint(pdf.etag, sidecar?.etag);
    if (known === print) return null;
    let meta: DocumentMeta = {};
    try {
      if (sidecar) meta = parseSidecar(new TextDecoder().decode(sidecar.bytes), `s3://${bucket}/${sidecarPathOf(key)}`);
    } catch (err) {
      const error = describeError(err);
      await recordRejectedSource(ports, { sourceKey, bytes: pdf.bytes, error });
      await ports.redis.hset(cursorKey, key, print);
      return { kind: 'rejected', key, ...error };
    }
    const result = await registerSource(ports, { sourceKey, sourceUri: `s3://${bucket}/${key}`, collector: 'bucket-watcher', bytes: pdf.bytes, meta, fetchedAt: clock() });
    await ports.redis.hset(cursorKey, key, print);
    return { kind: result.action, key, docId: result.docId };
  }

  async function remove(key: string): Promise<BucketEvent> {
    const docId = await deleteSource(ports, sourceKeyOf(key));
    await ports.redis.hdel(cursorKey, key);
    return { kind: 'deleted', key, docId };
  }

  /** A refused key is reported once per ETag, not on every scan. */
  async function refuse(key: string, etag: string, known: string | undefined): Promise<BucketEvent | null> {
    const print = `refused|${etag}`;
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
      const [listed, cursor] = await Promise.all([listAll(), ports.redis.hgetall(cursorKey)]);
      const events: (BucketEvent | null)[] = [];
      for (const [key, etag] of listed) {
        if (!isPdfKey(key)) continue;
        const known = cursor[key];
        if (objectKeyProblem(key)) {
          events.push(await refuse(key, etag, known));
          continue;
        }
        if (known === fingerprint(etag, listed.get(sidecarPathOf(key)))) continue;
        events.push(await guarded(key, () => ingest(key, known)));
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

export interface BucketWatcher {
  /** Resolves after the first scan. */
  ready: Promise<void>;
  /** Scans now (and waits for a scan already running). */
  scanNow(): Promise<BucketEvent[]>;
  close(): Promise<void>;
}

/** Polls the bucket every `pollMs`; scans never overlap. */
export function startBucketWatcher(opts: { source: BucketSource; pollMs: number; log: Logger; onEvent?: (e: BucketEvent) => void }): BucketWatcher {
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<BucketEvent[]> = Promise.resolve([]);

  const scanNow = () => {
    running = running.then(async () => {
      try {
        const events = await opts.source.scan();
        for (const e of events) opts.onEvent?.(e);
        if (events.length) opts.log.info('bucket scanned', { changes: events.length });
        return events;
      } catch (err) {
        opts.log.error('bucket scan failed', describeError(err));
        return [];
      }
    });
    return running;
  };
  const loop = () => {
    if (closed) return;
    timer = setTimeout(() => void scanNow().finally(loop), opts.pollMs);
  };
  const ready = scanNow().then(() => loop());

  return {
    ready,
    scanNow,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
