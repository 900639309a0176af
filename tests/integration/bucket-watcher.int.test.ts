/**
 * The S3-compatible bucket as the watched source, against a real S3 server (s3rver) started by the
 * test, with stage artifacts in a second bucket: objects put → indexed; an object overwritten →
 * its new version; deleted → gone; an event notification → ingested without a poll; a key with
 * "../" → refused with a clear error; an object over MAX_PDF_BYTES → failed TOO_LARGE without
 * ever being downloaded, one that is no PDF → NOT_A_PDF.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { createBucketSource } from '../../core/sources/bucket-sync.ts';
import { createS3Bucket } from '../../shared/s3/s3-bucket.ts';
import { objectKeyProblem } from '../../shared/sources/object-keys.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { eq } from '../../shared/store/filter.ts';
import { createS3Client } from '../../shared/s3/s3.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';
import { startTestS3, type TestS3 } from '../helpers/s3.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples/docs');
const INBOX = 'quarry-inbox';
const ADMIN = { 'content-type': 'application/json', authorization: 'Bearer admin-key' };
const docOf = (key: string) => docIdForSource(`s3:${INBOX}/${key}`);

describe.skipIf(!REDIS_AVAILABLE)('bucket watcher on an S3-compatible server', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let s3: TestS3;
  let client: S3Client;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;

  const put = (key: string, file: string) => client.send(new PutObjectCommand({ Bucket: INBOX, Key: key, Body: readFileSync(path.join(EXAMPLES, file)) }));
  const notify = (eventName: string, key: string) =>
    fetch(`${service.gatewayUrl}/v1/events/s3`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ EventName: `s3:${eventName}`, Key: `${INBOX}/${key}`, Records: [{ eventName: `s3:${eventName}`, s3: { bucket: { name: INBOX }, object: { key: encodeURIComponent(key).replace(/%2F/g, '/') } } }] }),
    });
  const chunksOf = (docId: string) => service.ports.store.countChunks(eq('doc_id', docId));

  beforeAll(async () => {
    redis = await startTestRedis();
    s3 = await startTestS3([INBOX, 'quarry-artifacts']);
    client = createS3Client(s3.settings);
    ws = testWorkspace(redis.url, {
      ...s3.env,
      WATCH_BUCKET: `s3://${INBOX}/docs`,
      // No poll during the test: scans are asked for, or notifications arrive.
      WATCH_BUCKET_POLL_MS: '3600000',
      ARTIFACT_STORE: 's3',
      ARTIFACT_BUCKET: 's3://quarry-artifacts/artifacts',
      QUARRY_API_KEYS: 'query-key',
      QUARRY_ADMIN_KEYS: 'admin-key',
    });
    service = await startService(ws.config, { workers: Object.values(INGEST_WORKERS), watch: true, gateway: { port: 0 } });
    await service.bucketWatcher!.ready;
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    client?.destroy();
    await s3?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('objects put → indexed, with their sidecar metadata and artifacts in the artifact bucket', async () => {
    await put('docs/policies/parental-leave.pdf', 'parental-leave-policy-2025.pdf');
    await put('docs/policies/parental-leave.meta.json', 'parental-leave-policy-2025.meta.json');
    await put('docs/faq.pdf', 'benefits-faq.pdf');
    await put('elsewhere/not-watched.pdf', 'benefits-faq.pdf');
    const events = await service.bucketWatcher!.scanNow();
    expect(events.map((e) => `${e.kind} ${e.key}`).sort()).toEqual(['registered docs/faq.pdf', 'registered docs/policies/parental-leave.pdf']);
    const statuses = await settle(service, { docIds: [docOf('docs/faq.pdf'), docOf('docs/policies/parental-leave.pdf')] });
    expect(statuses.map((s) => s.state)).toEqual(['indexed', 'indexed']);
    expect(await chunksOf(docOf('docs/faq.pdf'))).toBeGreaterThan(0);
    const doc = await service.ports.store.getDocument(docOf('docs/policies/parental-leave.pdf'));
    expect(doc).toMatchObject({ doc_type: 'policy', provenance: { source_uri: `s3://${INBOX}/docs/policies/parental-leave.pdf`, collector: 'bucket-watcher' } });
    // Stage outputs live in the artifact bucket, where every pod can read them.
    expect(await service.ports.artifacts.listVersions(docOf('docs/faq.pdf'))).toHaveLength(1);
    // Listing again changes nothing.
    expect(await service.bucketWatcher!.scanNow()).toEqual([]);
  }, 120_000);

  it('an object overwritten → only its new version’s chunks remain', async () => {
    const docId = docOf('docs/faq.pdf');
    const before = await service.ports.status.get(docId);
    await put('docs/faq.pdf', 'remote-work-handbook.pdf');
    expect((await service.bucketWatcher!.scanNow()).map((e) => e.kind)).toEqual(['registered']);
    await settle(service, { docIds: [docId] });
    const after = await service.ports.status.get(docId);
    expect(after?.version).not.toBe(before?.version);
    const versions = new Set((await service.ports.store.listChunkIds(docId)).map((c) => c.version));
    expect([...versions]).toEqual([after?.version]);
  }, 120_000);

  it('an object deleted → its document is gone', async () => {
    const docId = docOf('docs/faq.pdf');
    await client.send(new DeleteObjectCommand({ Bucket: INBOX, Key: 'docs/faq.pdf' }));
    expect((await service.bucketWatcher!.scanNow()).map((e) => `${e.kind} ${e.key}`)).toEqual(['deleted docs/faq.pdf']);
    await settle(service, { docIds: [docId] });
    expect((await service.ports.status.get(docId))?.state).toBe('deleted');
    expect(await chunksOf(docId)).toBe(0);
  }, 60_000);

  it('an event notification → ingested without a poll; removal notifications delete', async () => {
    const key = 'docs/new arrivals/retention.pdf';
    await put(key, 'data-retention-policy.pdf');
    const res = await notify('ObjectCreated:Put', key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { events: { kind: string; key: string }[] }).events).toEqual([expect.objectContaining({ kind: 'registered', key })]);
    await settle(service, { docIds: [docOf(key)] });
    expect(await chunksOf(docOf(key))).toBeGreaterThan(0);
    // The poll that follows finds nothing new: the notification moved the cursor.
    expect(await service.bucketWatcher!.scanNow()).toEqual([]);

    await client.send(new DeleteObjectCommand({ Bucket: INBOX, Key: key }));
    expect((await notify('ObjectRemoved:Delete', key)).status).toBe(200);
    await settle(service, { docIds: [docOf(key)] });
    expect(await chunksOf(docOf(key))).toBe(0);
  }, 120_000);

  it('DELETE /v1/documents/:id removes the object from the bucket too, so it is not ingested again', async () => {
    const key = 'docs/policies/parental-leave.pdf';
    const res = await fetch(`${service.gatewayUrl}/v1/documents/${docOf(key)}`, { method: 'DELETE', headers: { authorization: ADMIN.authorization } });
    expect(res.status).toBe(202);
    await settle(service, { docIds: [docOf(key)] });
    expect(await chunksOf(docOf(key))).toBe(0);
    const left = await client.send(new ListObjectsV2Command({ Bucket: INBOX, Prefix: 'docs/policies/' }));
    expect(left.Contents ?? []).toEqual([]);
    // The next poll sees the object gone and has nothing left to do.
    expect((await service.bucketWatcher!.scanNow()).map((e) => e.kind)).toEqual(['deleted']);
    expect((await service.ports.status.get(docOf(key)))?.state).toBe('deleted');
  }, 60_000);

  it('a key with "../" is refused with a clear error; a body that is no notification too', async () => {
    const res = await notify('ObjectCreated:Put', 'docs/../../etc/passwd.pdf');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('object key "docs/../../etc/passwd.pdf" rejected: it contains a "." or ".." path segment') } });
    const junk = await fetch(`${service.gatewayUrl}/v1/events/s3`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ hello: 'world' }) });
    expect(junk.status).toBe(400);
    expect((await fetch(`${service.gatewayUrl}/v1/events/s3`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it('an object over the size limit is never downloaded (failed TOO_LARGE); one that is no PDF fails NOT_A_PDF', async () => {
    // A client of our own, to see every GetObject the watcher sends.
    const watching = createS3Client(s3.settings);
    const gets: string[] = [];
    watching.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetObjectCommand') gets.push(String((args.input as { Key?: string }).Key));
        return next(args);
      },
      { step: 'initialize' },
    );
    const maxBytes = 64 * 1024;
    const source = createBucketSource({ bucket: createS3Bucket(watching, { bucket: INBOX, prefix: 'limits/' }), location: { bucket: INBOX, prefix: 'limits/' }, ports: { ...service.ports, prefix: ws.config.prefix }, log: createLogger('silent'), maxBytes });
    const body = (text: string, size: number) => Buffer.concat([Buffer.from(text), Buffer.alloc(size - text.length, 0x20)]);
    try {
      await client.send(new PutObjectCommand({ Bucket: INBOX, Key: 'limits/big.pdf', Body: body('%PDF-1.7\n', 200 * 1024) }));
      await client.send(new PutObjectCommand({ Bucket: INBOX, Key: 'limits/notes.pdf', Body: body('plain text, no header\n', 2000) }));
      const events = await source.scan();
      expect(events.map((e) => `${e.kind} ${e.key} ${'code' in e ? e.code : ''}`).sort()).toEqual(['rejected limits/big.pdf TOO_LARGE', 'rejected limits/notes.pdf NOT_A_PDF']);
      expect(await service.ports.status.get(docOf('limits/big.pdf'))).toMatchObject({ state: 'failed', errorCode: 'TOO_LARGE', errorMessage: expect.stringContaining('204800 bytes, over the 65536-byte limit') });
      expect(await service.ports.status.get(docOf('limits/notes.pdf'))).toMatchObject({ state: 'failed', errorCode: 'NOT_A_PDF' });
      // A notification for the oversize object HEADs it, and does not download it either.
      expect(await source.handleNotification({ Records: [{ eventName: 's3:ObjectCreated:Put', s3: { bucket: { name: INBOX }, object: { key: 'limits/big.pdf' } } }] })).toEqual([]);
      expect(gets).not.toContain('limits/big.pdf');
      expect(gets).toContain('limits/notes.pdf');
      expect(await service.ports.artifacts.listVersions(docOf('limits/big.pdf'))).toEqual([]);
      expect(await service.ports.artifacts.listVersions(docOf('limits/notes.pdf'))).toEqual([]);
      // Refused once per ETag: the next scan has nothing to do.
      expect(await source.scan()).toEqual([]);
    } finally {
      watching.destroy();
    }
  });

  it('names every kind of refused key', () => {
    expect(objectKeyProblem('docs/a.pdf')).toBeNull();
    expect(objectKeyProblem('/abs/a.pdf')).toMatch(/starts with "\/"/);
    expect(objectKeyProblem('docs/./a.pdf')).toMatch(/path segment/);
    expect(objectKeyProblem('docs/a\u0000.pdf')).toMatch(/control character/);
    expect(objectKeyProblem('docs\\..\\a.pdf')).toMatch(/backslash/);
    expect(objectKeyProblem('')).toMatch(/empty/);
  });
});
