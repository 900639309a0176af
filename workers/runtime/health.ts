import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { quarryMetrics } from '../../shared/metrics/index.ts';

/**
 * `/healthz` (liveness: the event loop is not stuck), `/readyz` (readiness: Redis answers and
 * the workers run) and `/metrics` (Prometheus: this process's stage durations and failures).
 * Readiness never depends on queue emptiness: an idle worker is ready.
 */
export async function startHealthServer(opts: {
  port: number;
  redis: Redis;
  isRunning: () => boolean;
  maxLoopDelayMs?: number;
}): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const maxDelayNs = (opts.maxLoopDelayMs ?? 2000) * 1e6;
  const server = createServer((req, res) => {
    const reply = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') {
      const p99 = loop.percentile(99);
      loop.reset();
      return reply(p99 < maxDelayNs ? 200 : 503, { ok: p99 < maxDelayNs, loopDelayP99Ms: Math.round(p99 / 1e6) });
    }
    if (req.url === '/readyz') {
      const timeout = new Promise<string>((r) => setTimeout(() => r('timeout'), 1000).unref());
      void Promise.race([opts.redis.ping().catch((e: Error) => e.message), timeout]).then((pong) => {
        const ready = pong === 'PONG' && opts.isRunning();
        reply(ready ? 200 : 503, { ready, redis: pong === 'PONG', workers: opts.isRunning() });
      });
      return;
    }
    if (req.url === '/metrics') {
      const { registry } = quarryMetrics();
      void registry.metrics().then((text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(text);
      });
      return;
    }
    reply(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        loop.disable();
        server.close(() => resolve());
      }),
  };
}
