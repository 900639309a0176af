/**
 * Watches an S3-compatible bucket: lists it every `pollMs` and compares each PDF's fingerprint
 * (its ETag and its sidecar's) with a cursor kept in Redis, so a restart or another replica picks
 * up exactly where the last scan left off. New or changed PDFs are registered (unchanged bytes and
 * metadata are never re-processed), removed ones deleted. Event notifications (AWS S3 or MinIO
 * webhook JSON, posted to the gateway) are handled the same way at once, without waiting for a poll.
 *
 * An object is never downloaded before its size is known to be within MAX_PDF_BYTES (from the
 * listing, or HEAD for a notification); over it, the document is recorded `failed` with TOO_LARGE.
 * The download stops as soon as the body runs over the limit (an object replaced meanwhile) or its
 * first KiB has no `%PDF-` header (NOT_A_PDF). Sidecars are read up to 1 MiB.
 */
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { sha256Hex, type DocumentMeta } from '../../shared/domain/index.ts';
import { describeError, PermanentError } from '../../shared/errors.ts';
import { classifyS3Error, isNotFound, type BucketLocation } from '../../shared/s3/s3.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import { deleteSource } from './local-watcher.ts';
import { parseSidecar, sidecarPathOf } from './metadata.ts';
import { S3_KEY_PREFIX, checkObjectKey, isPdfKey, isSidecarKey, objectKeyProblem, pdfKeyOfSidecar } from './object-keys.ts';
import { recordRejectedSource, registerSource, type RegisterPorts } from './register-source.ts';
import { MAX_METADATA_BYTES, PDF_HEADER_WINDOW, sourceProblem, unreadVersion, type SourceLimits, type SourceProblem } from './source-checks.ts';

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

/** An object as listed or HEAD-ed: enough to decide whether to download it. */
interface ObjectInfo {
  etag: string;
  size: number;
}

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

/** The bucket logic without a timer: scans and notifications (the gateway uses it for the latter). */
export function createBucketSource(opts: {
  client: S3Client;
  location: BucketLocation;
  ports: RegisterPorts;
  log: Logger;
  /** Larger objects are never downloaded (MAX_PDF_BYTES, `config.extract.maxBytes`). @defaultValue 104857600 (100 MiB) */
  maxBytes?: SourceLimits['maxBytes'];
  clock?: () => Date;
}): BucketSource {
  const { client, ports, log } = opts;
  const limits: SourceLimits = { maxBytes: opts.maxBytes ?? 100 * 1024 * 1024 };
  const { bucket, prefix } = opts.location;
  const clock = opts.clock ?? (() => new Date());
  const cursorKey = `${ports.prefix}:bucket-cursor:${bucket}/${prefix}`;
  const sourceKeyOf = (key: string) => `${S3_KEY_PREFIX}${bucket}/${key}`;

  const uriOf = (key: string) => `s3://${bucket}/${key}`;

  async function headObject(key: string): Promise<ObjectInfo | null> {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { etag: res.ETag ?? '', size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw classifyS3Error(err, `head ${key}`);
    }
  }

  /**
   * Downloads an object of at most `limit` bytes (its declared length is checked first, then the
   * bytes as they arrive); with `pdf`, stops at a first KiB without a PDF header.
   * @returns null when the object is gone.
   */
  async function getObject(key: string, limit: number, pdf: boolean): Promise<(BodyRead & { etag: string; size: number }) | null> {
    let res;
    try {
      res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw classifyS3Error(err, `get ${key}`);
    }
    const etag = res.ETag ?? '';
    const declared = res.ContentLength ?? 0;
    const body = res.Body;
    if (declared > limit) {
      // Closes the connection before the body is read.
      if (body && 'destroy' in body && typeof body.destroy === 'function') body.destroy();
      return { kind: 'over', seen: declared, etag, size: declared };
    }
    const checkHead = pdf ? (head: Uint8Array) => sourceProblem({ size: declared, head }, limits, uriOf(key)) : undefined;
    // Node's SDK gives a stream; elsewhere the declared length was checked above.
    const read = await readBodyCapped(isAsyncIterable(body) ? body : [(await body?.transformToByteArray()) ?? new Uint8Array()], limit, checkHead);
    return { ...read, etag, size: read.kind === 'over' ? read.seen : declared };
  }

  async function listAll(): Promise<Map<string, ObjectInfo>> {
    const etags = new Map<string, ObjectInfo>();
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })).catch((err: unknown) => {
        throw classifyS3Error(err, `list s3://${bucket}/${prefix}`);
      });
      for (const o of page.Contents ?? []) if (o.Key) etags.set(o.Key, { etag: o.ETag ?? '', size: o.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return etags;
  }

  /** Records a PDF refused before (or while) downloading it as a failed document, once per fingerprint. */
  async function refuseObject(key: string, print: string, info: ObjectInfo, problem: SourceProblem): Promise<BucketEvent> {
    await recordRejectedSource(ports, { sourceKey: sourceKeyOf(key), version: unreadVersion(problem.code, `${info.etag}|${info.size}`), error: problem });
    await ports.redis.hset(cursorKey, key, print);
    log.warn('bucket object refused', { key, code: problem.code, reason: problem.message });
    return { kind: 'rejected', key, ...problem };
  }

  /** The sidecar's text, or why it was not read (over {@link MAX_METADATA_BYTES}); null when there is none. */
  async function getSidecar(key: string): Promise<{ etag: string; text: string | null; error?: PermanentError } | null> {
    const got = await getObject(key, MAX_METADATA_BYTES, false);
    if (!got) return null;
    if (got.kind !== 'read') return { etag: got.etag, text: null, error: new PermanentError('INVALID_METADATA', `${uriOf(key)} is over the ${MAX_METADATA_BYTES}-byte limit for metadata`) };
    return { etag: got.etag, text: new TextDecoder().decode(got.bytes) };
  }

  /**
   * Registers one PDF (and its sidecar) if its fingerprint changed (null: it did not); records it
   * in the cursor. `listed` is the PDF as the listing showed it; without it the PDF is HEAD-ed.
   */
  async function ingest(key: string, known: string | undefined, listed?: ObjectInfo): Promise<BucketEvent | null> {
    const sourceKey = sourceKeyOf(key);
    const info = listed ?? (await headObject(key));
    if (!info) return remove(key);
    const sidecarKey = sidecarPathOf(key);
    const sidecar = await getSidecar(sidecarKey);
    const print = fingerprint(info.etag, sidecar?.etag);
    if (known === print) return null;
    // Size first: an oversize PDF is never downloaded.
    const sized = sourceProblem({ size: info.size }, limits, uriOf(key));
    if (sized) return refuseObject(key, print, info, sized);
    const pdf = await getObject(key, limits.maxBytes, true);
    if (!pdf) return remove(key);
    if (pdf.kind === 'over') return refuseObject(key, print, pdf, sourceProblem({ size: pdf.size }, limits, uriOf(key)) ?? { code: 'TOO_LARGE', message: `${uriOf(key)} is over the limit` });
    if (pdf.kind === 'problem') return refuseObject(key, print, pdf, pdf.problem);
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
      for (const [key, info] of listed) {
        if (!isPdfKey(key)) continue;
        const known = cursor[key];
        if (objectKeyProblem(key)) {
          events.push(await refuse(key, info.etag, known));
          continue;
        }
        if (known === fingerprint(info.etag, listed.get(sidecarPathOf(key))?.etag)) continue;
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
