/**
 * One code per failure whatever the way in: a bad file uploaded through `POST /v1/documents` and
 * the same bytes dropped into the watched folder end with the same error code. And the document
 * list says which failures a retry can run (`retryable`), exactly where the retry route answers
 * 202 rather than 409.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayDeps } from '../../apps/gateway/gateway-deps.ts';
import { buildGateway } from '../../apps/gateway/server.ts';
import { startLocalWatcher, type LocalWatcher } from '../../apps/watcher/local-watcher.ts';
import { registerSource } from '../../core/sources/register-source.ts';
import { docIdForSource } from '../../shared/domain/index.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createPorts } from '../../workers/compose.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const MAX_PDF_BYTES = 64 * 1024;
const A = { 'x-api-key': 'a-key' };

/** Bad files, each as the watcher and the upload see it. */
const BAD: { name: string; bytes: () => Buffer<ArrayBuffer> }[] = [
  { name: 'text.pdf', bytes: () => Buffer.from('plain text under a .pdf name\n') },
  { name: 'empty.pdf', bytes: () => Buffer.alloc(0) },
  { name: 'late-header.pdf', bytes: () => Buffer.concat([Buffer.alloc(2048, 0x20), Buffer.from('%PDF-1.7\n')]) },
  { name: 'huge.pdf', bytes: () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_PDF_BYTES, 0x20)]) },
];

interface ListedDoc {
  docId: string;
  state: string;
  errorCode: string | null;
  retryable: boolean;
}

describe.skipIf(!REDIS_AVAILABLE)('uploads and the watched folder: one code per bad file; retryable where a retry runs', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let ports: Awaited<ReturnType<typeof createPorts>>;
  let deps: ReturnType<typeof gatewayDeps>;
  let app: FastifyInstance;
  let watcher: LocalWatcher;
  let base: string;

  const list = async () => ((await (await fetch(`${base}/v1/documents`, { headers: A })).json()) as { documents: ListedDoc[] }).documents;
  const statusOf = (name: string) => ports.status.get(docIdForSource(`dir:${name}`));

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { MAX_PDF_BYTES: String(MAX_PDF_BYTES) });
    ports = await createPorts(ws.config);
    deps = gatewayDeps(ports, { traceTtlSeconds: 60, recordFeedback: async () => ({ enqueued: false, chunks: 0 }) });
    app = await buildGateway(deps, { keys: { query: ['q-key'], admin: ['a-key'] }, queryTimeoutMs: 500, maxUploadBytes: 1_000_000, maxSourceBytes: ws.config.extract.maxBytes });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    // Polling: the same events on every filesystem the tests run on.
    watcher = startLocalWatcher({ dir: ws.config.watchDir, ports: { ...ports, prefix: ws.config.prefix }, log: createLogger('silent'), maxBytes: ws.config.extract.maxBytes, poll: true });
    await watcher.ready;
  });

  afterAll(async () => {
    await watcher?.close();
    await app?.close();
    await deps?.close();
    await ports?.close();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('a bad file ends with the same code uploaded as dropped into the watched folder', async () => {
    for (const bad of BAD) {
      const res = await fetch(`${base}/v1/documents?filename=up-${bad.name}`, { method: 'POST', headers: { ...A, 'content-type': 'application/pdf' }, body: bad.bytes() });
      const uploaded = ((await res.json()) as { error?: { code: string; message: string } }).error;
      expect(uploaded, bad.name).toBeDefined();
      // Refused before it was written: nothing reaches the watched folder.
      expect(existsSync(path.join(ws.config.watchDir, `up-${bad.name}`)), bad.name).toBe(false);
      await writeFile(path.join(ws.config.watchDir, `dropped-${bad.name}`), bad.bytes());
      await expect.poll(async () => (await statusOf(`dropped-${bad.name}`))?.state, { timeout: 10_000 }).toBe('failed');
      const dropped = await statusOf(`dropped-${bad.name}`);
      expect(uploaded!.code, bad.name).toBe(dropped!.errorCode);
      // The same words, naming the file as each way in knows it.
      expect(uploaded!.message.replace(`up-${bad.name}`, 'X'), bad.name).toBe(dropped!.errorMessage!.replace(`dropped-${bad.name}`, 'X'));
    }
    expect(await statusOf('up-text.pdf')).toBeNull();
  });

  it('retryable is true exactly where POST /v1/documents/:id/retry answers 202', async () => {
    // A source that was stored and then failed in a stage (its extraction found it corrupt).
    const bytes = await textPdf([['Overtime is paid at 150 percent.']]);
    const stored = await registerSource({ ...ports, prefix: ws.config.prefix }, { sourceKey: 'dir:stored.pdf', sourceUri: 'file:///stored.pdf', collector: 'test', bytes, meta: {}, fetchedAt: new Date() });
    const record = (await ports.status.get(stored.docId))!;
    await ports.status.update(stored.docId, record.version, record.gen, { state: 'failed', error: { code: 'CORRUPT_PDF', message: 'could not be parsed' } });

    const docs = await list();
    const failed = docs.filter((d) => d.state === 'failed');
    expect(failed.map((d) => d.errorCode).sort()).toEqual(['CORRUPT_PDF', 'NOT_A_PDF', 'NOT_A_PDF', 'NOT_A_PDF', 'TOO_LARGE']);
    expect(docs.filter((d) => d.state !== 'failed').every((d) => !d.retryable)).toBe(true);
    for (const d of failed) {
      const res = await fetch(`${base}/v1/documents/${d.docId}/retry`, { method: 'POST', headers: A });
      expect(res.status, `${d.errorCode} retryable=${d.retryable}`).toBe(d.retryable ? 202 : 409);
    }
    expect(failed.find((d) => d.docId === stored.docId)?.retryable).toBe(true);
  });
});
