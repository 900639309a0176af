import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayDeps } from '../../apps/gateway/gateway-deps.ts';
import { buildGateway } from '../../apps/gateway/server.ts';
import { createPorts } from '../../workers/compose.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const PER_MIN = 5;

describe.skipIf(!REDIS_AVAILABLE)('gateway limits per caller', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let ports: Awaited<ReturnType<typeof createPorts>>;
  // Two replicas of the gateway on one Redis.
  const replicas: { app: FastifyInstance; deps: ReturnType<typeof gatewayDeps>; base: string }[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    ports = await createPorts(ws.config);
    for (let i = 0; i < 2; i++) {
      const deps = gatewayDeps(ports, { traceTtlSeconds: 60, recordFeedback: async () => ({ enqueued: false, chunks: 0 }) });
      const app = await buildGateway(deps, {
        keys: { query: ['q-one', 'q-two', 'q-big'], admin: ['a-key'] },
        queryTimeoutMs: 500,
        maxUploadBytes: 5_000_000,
        rateLimitPerMin: PER_MIN,
      });
      replicas.push({ app, deps, base: await app.listen({ port: 0, host: '127.0.0.1' }) });
    }
  });

  afterAll(async () => {
    for (const r of replicas) {
      await r.app.close();
      await r.deps.close();
    }
    await ports?.close();
    await redis?.cleanup();
    ws?.cleanup();
  });

  const get = (i: number, p: string, key: string) => fetch(`${replicas[i]!.base}${p}`, { headers: { 'x-api-key': key } });

  it('a JSON body over 1 MiB is refused 413 in the error shape; an upload may be larger', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(2 * 1024 * 1024) });
    const res = await fetch(`${replicas[0]!.base}/v1/query`, { method: 'POST', headers: { 'x-api-key': 'q-big', 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: 'TOO_LARGE', message: expect.any(String) } });

    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const upload = await fetch(`${replicas[0]!.base}/v1/documents?filename=big.pdf`, { method: 'POST', headers: { 'x-api-key': 'a-key', 'content-type': 'application/pdf' }, body: pdf });
    expect(upload.status).toBe(202);
  });

  it('an unknown route answers 404 in the same error shape as the others', async () => {
    const res = await get(0, '/v1/nothing-here', 'q-two');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('/v1/nothing-here') } });
  });

  it('a key over RATE_LIMIT_PER_MIN gets 429 with Retry-After, counted across replicas; other keys and health checks are not limited', async () => {
    // PER_MIN requests spread over both replicas use up the key's minute...
    for (let i = 0; i < PER_MIN; i++) expect((await get(i % 2, '/v1/documents/some-doc', 'q-one')).status).toBe(404);
    // ...so the next one is refused, whichever replica it reaches.
    for (const i of [0, 1]) {
      const res = await get(i, '/v1/documents/some-doc', 'q-one');
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await res.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    }
    expect((await get(0, '/v1/documents/some-doc', 'q-two')).status).toBe(404);
    for (let i = 0; i < PER_MIN + 2; i++) expect((await get(1, '/readyz', 'q-one')).status).toBe(200);
    // Nor are the web app's files and the key's role: they read nothing from Redis, where counts live.
    for (const p of ['/', '/index.html', '/v1/whoami']) expect((await get(0, p, 'q-one')).status, p).toBe(200);
  });
});
