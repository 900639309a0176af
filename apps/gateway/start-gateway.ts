import type { FastifyInstance } from 'fastify';
import { memoryUpdateQueue } from '../../queues/memory.queues.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import type { Ports } from '../../workers/runtime/ports.ts';
import { gatewayDeps } from './gateway-deps.ts';
import { buildGateway } from './server.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

/**
 * Starts the HTTP gateway on the configured host and port. Without API keys it only listens on
 * loopback: an open gateway on a network interface is refused at start, not discovered later.
 * @throws Error when keys are missing for a non-loopback host.
 */
export async function startGateway(ports: Ports, log: Logger, overrides: { port?: number } = {}): Promise<{ app: FastifyInstance; url: string; close(): Promise<void> }> {
  const g = ports.config.gateway;
  if (!g.apiKeys.length && !g.adminKeys.length) {
    if (!LOOPBACK.test(g.host)) throw new Error(`GATEWAY_HOST=${g.host} is not loopback: set QUARRY_API_KEYS and QUARRY_ADMIN_KEYS first`);
    log.warn('no API keys configured: the gateway accepts every request (loopback only)');
  }
  const deps = gatewayDeps(ports, {
    traceTtlSeconds: g.traceTtlSeconds,
    traceMaxCount: g.traceMaxCount,
    log,
    async recordFeedback({ runId, useful, verdict }) {
      const ctx = await deps.runContexts.get(runId);
      if (!ctx || verdict !== 'useful' || useful.length === 0) return { enqueued: false, chunks: 0 };
      // Its own run id: the automatic update of a validated run must not swallow explicit feedback.
      // On the gateway's fast-failing client: feedback sent during an outage is refused, not queued.
      await deps.queues.enqueue(memoryUpdateQueue, {
        runId: `${runId}-feedback`,
        outcomes: useful.map((chunkId) => ({ chunkId, queryVector: ctx.queryVector, intent: ctx.intent, entities: ctx.entities })),
        at: new Date().toISOString(),
      });
      return { enqueued: true, chunks: useful.length };
    },
  });
  const app = await buildGateway(deps, {
    keys: { query: g.apiKeys, admin: g.adminKeys },
    queryTimeoutMs: g.queryTimeoutMs,
    maxUploadBytes: g.maxUploadBytes,
    rateLimitPerMin: g.rateLimitPerMin,
  });
  const url = await app.listen({ host: g.host, port: overrides.port ?? g.port });
  log.info('gateway listening', { url });
  return {
    app,
    url,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}
