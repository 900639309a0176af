import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayDeps } from '../../apps/gateway/gateway-deps.ts';
import { buildGateway } from '../../apps/gateway/server.ts';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import type { AgentAnswer } from '../../shared/runs/answer.ts';
import { createVectorStore } from '../../shared/store/index.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createPorts } from '../../workers/compose.ts';
import { defineStageWorker } from '../../workers/runtime/stage-worker.ts';
import { startWorkers, type WorkerGroup } from '../../workers/runtime/start-workers.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const CHUNK = '0b7e4f5a-1c2d-5e3f-8a9b-0c1d2e3f4a5b';

/**
 * The gateway's contract with the agent-run queue, with a stand-in agent: answers echo the
 * question, "slow" takes 1.5 s, "boom" fails. The real agent is tested end to end elsewhere.
 */
const standInAgent = defineStageWorker(agentRunQueue, { needs: ['config', 'redis'] }, async (p, ctx) => {
  if (p.query === 'boom') throw new Error('agent exploded');
  if (p.query === 'slow') await new Promise((r) => setTimeout(r, 1500));
  await ctx.redis.set(`${ctx.config.prefix}:runctx:${p.runId}`, JSON.stringify({ runId: p.runId, queryVector: [1, 0], intent: 'lookup', entities: [], citedChunkIds: [CHUNK] }));
  const answer: AgentAnswer = {
    runId: p.runId,
    text: `echo: ${p.query} [1]`,
    citations: [{ n: 1, chunkId: CHUNK, docId: 'doc-1', title: 'T', sectionPath: 'A > B', pages: { start: 2, end: 2 }, validFrom: null, validTo: null }],
    dateQualifier: p.asOf ? `as of ${p.asOf}` : null,
    asOf: p.asOf ?? null,
    validated: true,
    fallback: false,
    loops: 0,
    verdict: 'OK',
    reason: 'grounded',
    latencyMs: 1,
  };
  return answer;
});

describe.skipIf(!REDIS_AVAILABLE)('gateway over real HTTP', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let ports: Awaited<ReturnType<typeof createPorts>>;
  let deps: ReturnType<typeof gatewayDeps>;
  let app: FastifyInstance;
  let workers: WorkerGroup;
  let base: string;
  const feedback: unknown[] = [];
  const lines: string[] = [];
  const failures = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request failed');
  const Q = { 'x-api-key': 'q-key', 'content-type': 'application/json' };
  const A = { 'x-api-key': 'a-key', 'content-type': 'application/json' };

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    ports = await createPorts(ws.config);
    workers = startWorkers([standInAgent], ports, createLogger('silent'));
    deps = gatewayDeps(ports, {
      traceTtlSeconds: 60,
      log: createLogger('info', {}, (line) => lines.push(line)),
      recordFeedback: async (input) => {
        feedback.push(input);
        return { enqueued: input.verdict === 'useful' && input.useful.length > 0, chunks: input.useful.length };
      },
    });
    app = await buildGateway(deps, { keys: { query: ['q-key'], admin: ['a-key'] }, queryTimeoutMs: 1000, maxUploadBytes: 5_000_000, maxSourceBytes: 1_000_000 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await workers?.close();
    await deps?.close();
    await ports?.close();
    await redis?.cleanup();
    ws?.cleanup();
  });

  const post = (p: string, body: unknown, headers: Record<string, string> = Q) => fetch(`${base}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });

  it('answers a query synchronously, and the run can be read back', async () => {
    const res = await post('/v1/query', { query: 'what is covered?', asOf: '2024-06-01' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { runId: string; answer: AgentAnswer };
    expect(body.answer).toMatchObject({ text: 'echo: what is covered? [1]', dateQualifier: 'as of 2024-06-01' });
    const run = await (await fetch(`${base}/v1/runs/${body.runId}`, { headers: Q })).json();
    expect(run).toMatchObject({ runId: body.runId, state: 'completed' });
  });

  it('async: 202 with a run id at once; a slow run past the timeout also answers 202', async () => {
    const res = await post('/v1/query', { query: 'slow', async: true });
    expect(res.status).toBe(202);
    const { runId } = (await res.json()) as { runId: string };
    expect(runId).toMatch(/^[a-f0-9]{32}$/);
    const slow = await post('/v1/query', { query: 'slow', timeoutMs: 200 });
    expect(slow.status).toBe(202);
    const slowId = ((await slow.json()) as { runId: string }).runId;
    for (let i = 0; i < 60; i++) {
      const run = (await (await fetch(`${base}/v1/runs/${slowId}`, { headers: Q })).json()) as { state: string };
      if (run.state === 'completed') return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the slow run never completed');
  });

  it('a failed run reports its error, and its 500 is logged once with the run and code, never the question', async () => {
    const before = failures().length;
    const res = await post('/v1/query', { query: 'boom' });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { runId: string };
    expect(body).toMatchObject({ state: 'failed', error: { code: 'INTERNAL', message: 'agent exploded' } });
    await expect.poll(() => failures().length).toBe(before + 1);
    expect(failures().at(-1)).toMatchObject({ level: 'error', method: 'POST', route: '/v1/query', status: 500, error: { code: 'INTERNAL', runId: body.runId } });
    expect(lines.join('\n')).not.toContain('boom');
  });

  it('an upload that fails inside the gateway answers 500 "internal error" and logs its cause once', async () => {
    const pdf = await readFile(path.join(root, 'examples/docs/benefits-faq.pdf'));
    const before = failures().length;
    // The watched folder gone (an unmounted volume): the write fails with ENOENT.
    const moved = `${ws.config.watchDir}.away`;
    await rename(ws.config.watchDir, moved);
    try {
      const res = await fetch(`${base}/v1/documents?filename=lost.pdf`, { method: 'POST', headers: { 'x-api-key': 'a-key', 'content-type': 'application/pdf' }, body: pdf });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
    } finally {
      await rename(moved, ws.config.watchDir);
    }
    await expect.poll(() => failures().length).toBe(before + 1);
    const logged = failures().at(-1) as { route: string; error: { name: string; code: string; message: string; stack: string } };
    expect(logged.route).toBe('/v1/documents');
    expect(logged.error).toMatchObject({ name: 'Error', code: 'ENOENT', message: expect.stringContaining('ENOENT') });
    expect(logged.error.stack).toMatch(/atomicWrite|writeFile/);
    // Answers below 500 are the client's business: not logged as failures.
    expect((await fetch(`${base}/v1/runs/doesnotexist123`, { headers: Q })).status).toBe(404);
    expect(failures().length).toBe(before + 1);
  });

  it('whoami tells the app its key\'s role', async () => {
    expect((await fetch(`${base}/v1/whoami`)).status).toBe(401);
    expect(await (await fetch(`${base}/v1/whoami`, { headers: Q })).json()).toEqual({ role: 'query' });
    expect(await (await fetch(`${base}/v1/whoami`, { headers: A })).json()).toEqual({ role: 'admin' });
  });

  it('bad input is a 400 naming the field', async () => {
    const res = await post('/v1/query', { query: '', alpha: 2, extra: 1 });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_PAYLOAD');
    expect(body.error.message).toMatch(/body\.query/);
    expect(body.error.message).toMatch(/body\.alpha/);
    expect((await fetch(`${base}/v1/runs/bad:id`, { headers: Q })).status).toBe(400);
    expect((await fetch(`${base}/v1/runs/doesnotexist123`, { headers: Q })).status).toBe(404);
  });

  it('keys: none → 401, query key on an admin route → 403, health is public', async () => {
    expect((await post('/v1/query', { query: 'x' }, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await post('/v1/query', { query: 'x' }, { 'content-type': 'application/json', authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await fetch(`${base}/debug/trace/abcdefgh`, { headers: Q })).status).toBe(403);
    expect((await fetch(`${base}/debug/trace/abcdefgh`, { headers: A })).status).toBe(404);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ ready: true });
    expect((await fetch(`${base}/docs/json`)).status).toBe(200);
  });

  it('feedback goes to memory only for chunks the run cited', async () => {
    const { runId } = (await (await post('/v1/query', { query: 'cited?' })).json()) as { runId: string };
    const ok = await post(`/v1/runs/${runId}/feedback`, { useful: [CHUNK], verdict: 'useful' });
    expect(ok.status).toBe(202);
    expect(await ok.json()).toMatchObject({ enqueued: true, chunks: 1 });
    expect(feedback).toContainEqual({ runId, useful: [CHUNK], verdict: 'useful' });
    const bad = await post(`/v1/runs/${runId}/feedback`, { useful: ['11111111-2222-5333-8444-555555555555'], verdict: 'useful' });
    expect(bad.status).toBe(400);
    expect((await post(`/v1/runs/nosuchrun123/feedback`, { verdict: 'useful' })).status).toBe(404);
  });

  it('documents: upload into the watched folder, status, delete; unsafe names refused', async () => {
    const pdf = await readFile(path.join(root, 'examples/docs/benefits-faq.pdf'));
    const up = await fetch(`${base}/v1/documents?filename=faq.pdf`, {
      method: 'POST',
      headers: { 'x-api-key': 'a-key', 'content-type': 'application/pdf', 'x-quarry-metadata': JSON.stringify({ doc_type: 'faq' }) },
      body: pdf,
    });
    expect(up.status).toBe(202);
    const { docId } = (await up.json()) as { docId: string };
    expect(await readFile(path.join(ws.config.watchDir, 'faq.meta.json'), 'utf8')).toBe('{"doc_type":"faq"}');
    expect((await readFile(path.join(ws.config.watchDir, 'faq.pdf'))).equals(pdf)).toBe(true);
    expect((await fetch(`${base}/v1/documents/${docId}`, { headers: Q })).status).toBe(404); // no watcher in this test
    await ports.status.register({ docId, sourceKey: 'dir:faq.pdf', version: 'f'.repeat(64) });
    expect(await (await fetch(`${base}/v1/documents/${docId}`, { headers: Q })).json()).toMatchObject({ docId, state: 'queued' });
    expect((await fetch(`${base}/v1/documents/${docId}`, { method: 'DELETE', headers: { 'x-api-key': 'q-key' } })).status).toBe(403);
    expect((await fetch(`${base}/v1/documents/${docId}`, { method: 'DELETE', headers: { 'x-api-key': 'a-key' } })).status).toBe(202);
    await expect(readFile(path.join(ws.config.watchDir, 'faq.pdf'))).rejects.toThrow();
    expect((await ports.status.get(docId))?.state).toBe('deleting');

    for (const name of ['../evil.pdf', 'a/b.pdf', '.hidden.pdf', 'x.txt']) {
      const res = await fetch(`${base}/v1/documents?filename=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'x-api-key': 'a-key', 'content-type': 'application/pdf' }, body: pdf });
      expect(res.status, name).toBe(400);
    }
    // The watched folder's checks and codes (see gateway-upload.int.test.ts for the two side by side).
    const upload = (name: string, body: Buffer<ArrayBuffer> | string, headers: Record<string, string> = {}) =>
      fetch(`${base}/v1/documents?filename=${name}`, { method: 'POST', headers: { 'x-api-key': 'a-key', 'content-type': 'application/pdf', ...headers }, body });
    const notPdf = await upload('n.pdf', 'hello');
    expect(notPdf.status).toBe(400);
    expect(await notPdf.json()).toEqual({ error: { code: 'NOT_A_PDF', message: 'n.pdf is not a PDF (no %PDF- header in its first 1024 bytes)' } });
    expect(await (await upload('empty.pdf', '')).json()).toMatchObject({ error: { code: 'NOT_A_PDF', message: 'empty.pdf is empty' } });
    const big = await upload('big.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1_500_000, 0x20)]));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'TOO_LARGE', message: expect.stringContaining('MAX_PDF_BYTES') } });
    const badMeta = await upload('m.pdf', pdf, { 'x-quarry-metadata': JSON.stringify({ valid_from: 'yesterday' }) });
    expect(badMeta.status).toBe(400);
    expect(await badMeta.json()).toMatchObject({ error: { code: 'INVALID_METADATA', message: expect.stringContaining('valid_from') } });
    expect(await (await upload('j.pdf', pdf, { 'x-quarry-metadata': '{not json' })).json()).toMatchObject({ error: { code: 'INVALID_METADATA' } });
    // Readers accept junk before the header within the first KiB, and so does the watcher: so does the upload.
    expect((await upload('prefixed.pdf', Buffer.concat([Buffer.from('junk before the header\n'), pdf]))).status).toBe(202);
  });

  it('a search on a store written by another embedder is a 409 EMBEDDER_MISMATCH naming both models', async () => {
    // Last in this file: the workspace's store now belongs to another embedder.
    const other = await createVectorStore(ws.config.vectorStore);
    await other.ensureSchema({ dimension: ports.embedder.dimension, model: 'another-embedder/v1' });
    await other.close();
    const res = await post('/v1/search', { query: 'what is covered?' });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('EMBEDDER_MISMATCH');
    expect(body.error.message).toContain('another-embedder/v1');
    expect(body.error.message).toContain(ports.embedder.model);
  });
});
