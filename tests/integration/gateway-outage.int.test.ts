import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gatewayDeps } from '../../apps/gateway/gateway-deps.ts';
import { buildGateway } from '../../apps/gateway/server.ts';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createPorts } from '../../workers/compose.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

/** A request with a hard stop, so a gateway that hangs fails the test instead of stalling it. */
/**
 * A request that must be answered while Redis is away: one the gateway held until Redis came back
 * would hang, so it is aborted after a generous 20 s (a hang guard; latency is the bench's).
 */
async function answered(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const body: unknown = await res.json();
  return { status: res.status, body };
}

describe.skipIf(!REDIS_AVAILABLE)('gateway while Redis is down', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let ports: Awaited<ReturnType<typeof createPorts>>;
  let deps: ReturnType<typeof gatewayDeps>;
  let app: FastifyInstance;
  let base: string;
  const lines: string[] = [];
  const runIds: string[] = [];
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  const consoleError = vi.spyOn(console, 'error');
  const consoleWarn = vi.spyOn(console, 'warn');
  const H = { 'x-api-key': 'q-key', 'content-type': 'application/json' };

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    // AOF on: whatever the gateway wrote during the outage would still be there after the restart.
    redis = await startTestRedis({ appendonly: true });
    ws = testWorkspace(redis.url);
    ports = await createPorts(ws.config);
    deps = gatewayDeps(ports, {
      traceTtlSeconds: 60,
      log: createLogger('debug', {}, (line) => lines.push(line)),
      recordFeedback: async () => ({ enqueued: false, chunks: 0 }),
    });
    app = await buildGateway(deps, {
      keys: { query: ['q-key'], admin: ['a-key'] },
      queryTimeoutMs: 500,
      maxUploadBytes: 1_000_000,
      newRunId: () => {
        const id = `outage${String(runIds.length).padStart(4, '0')}`;
        runIds.push(id);
        return id;
      },
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    consoleError.mockRestore();
    consoleWarn.mockRestore();
    await app?.close();
    await deps?.close();
    await ports?.close();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('answers 503 at once, runs nothing sent during the outage, and logs JSON lines only', async () => {
    expect((await answered(`${base}/readyz`)).status).toBe(200);
    await redis.stop();

    const ready = await answered(`${base}/readyz`);
    expect(ready.status).toBe(503);

    const query = await answered(`${base}/v1/query`, { method: 'POST', headers: H, body: JSON.stringify({ query: 'sent during the outage' }) });
    expect(query.status).toBe(503);
    expect(query.body).toEqual({ error: { code: 'REDIS_UNAVAILABLE', message: expect.any(String) } });

    const asyncQuery = await answered(`${base}/v1/query`, { method: 'POST', headers: H, body: JSON.stringify({ query: 'async, during the outage', async: true }) });
    expect(asyncQuery.status).toBe(503);

    for (const p of ['/v1/documents/some-doc', '/v1/runs/outage0000']) {
      const res = await answered(`${base}${p}`, { headers: H });
      expect(res.status, p).toBe(503);
      expect(res.body, p).toMatchObject({ error: { code: 'REDIS_UNAVAILABLE' } });
    }

    // What needs no Redis keeps answering: the web app, liveness, the key's role, the metrics.
    expect((await fetch(`${base}/`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
    expect((await answered(`${base}/healthz`)).status).toBe(200);
    expect(await answered(`${base}/v1/whoami`, { headers: H })).toMatchObject({ status: 200, body: { role: 'query' } });
    const metrics = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5000) });
    expect(metrics.status).toBe(200);
    const scraped = await metrics.text();
    expect(scraped).toMatch(/^quarry_redis_up 0$/m);
    expect(scraped).not.toMatch(/^quarry_jobs\{/m);

    // Long enough for several reconnect attempts, each of which used to print a raw dump.
    await new Promise((r) => setTimeout(r, 2500));
    await redis.restart();
    const deadline = Date.now() + 15_000;
    while ((await answered(`${base}/readyz`)).status !== 200) {
      if (Date.now() > deadline) throw new Error('the gateway did not reconnect within 15 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    // A query sent during the outage must not be waiting to run, now that Redis is back.
    await new Promise((r) => setTimeout(r, 500));
    expect(runIds.length).toBe(2);
    const queue = deps.queues.queue(agentRunQueue);
    for (const runId of runIds) expect(await queue.getJob(agentRunQueue.jobId({ runId, query: 'x' }))).toBeUndefined();
    expect(await deps.queues.counts(agentRunQueue)).toMatchObject({ waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 });

    // After the restart the gateway works again.
    const after = await answered(`${base}/v1/query`, { method: 'POST', headers: H, body: JSON.stringify({ query: 'after', async: true }) });
    expect(after.status).toBe(202);

    expect(consoleError).not.toHaveBeenCalled();
    expect(consoleWarn).not.toHaveBeenCalled();
    expect(rejections).toEqual([]);
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; source?: string });
    // One line when a connection goes down and one when it is back, per connection: not one per retry.
    const lost = parsed.filter((l) => l.msg === 'redis connection lost');
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(lost.length).toBeLessThanOrEqual(2);
    expect(parsed.filter((l) => l.msg === 'redis connection restored').length).toBeGreaterThanOrEqual(1);
    expect(parsed.length).toBeLessThanOrEqual(6);
  }, 40_000);
});
