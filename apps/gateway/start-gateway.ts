import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createFeedbackRecorder } from '../../core/feedback.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { gatewayDeps } from './gateway-deps.ts';
import { buildGateway } from './server.ts';
import type { GatewayPorts } from './types.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

/** While the gateway closes, connections that never sent a byte are looked for this often. */
const UNUSED_SWEEP_MS = 100;

/**
 * The server's connections that have not sent a byte: a browser's preconnected socket, a TCP
 * health probe. Node counts them as neither idle nor busy, so a closing server waits for them
 * until its headers timeout (60 s) — a whole pod's shutdown grace. `destroy` closes them; a
 * connection that has sent anything, a request in flight included, is left to finish.
 */
function trackUnusedConnections(server: Server): { destroy(): void } {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    destroy() {
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    },
  };
}

/**
 * Starts the HTTP gateway on the configured host and port. Without API keys it only listens on
 * loopback: an open gateway on a network interface is refused at start, not discovered later.
 * @throws Error when keys are missing for a non-loopback host.
 */
export async function startGateway(ports: GatewayPorts, log: Logger, overrides: { port?: number } = {}): Promise<{ app: FastifyInstance; url: string; close(): Promise<void> }> {
  const g = ports.config.gateway;
  if (!g.apiKeys.length && !g.adminKeys.length) {
    if (!LOOPBACK.test(g.host)) throw new Error(`GATEWAY_HOST=${g.host} is not loopback: set QUARRY_API_KEYS and QUARRY_ADMIN_KEYS first`);
    log.warn('no API keys configured: the gateway accepts every request (loopback only)');
  }
  let recordFeedback: ReturnType<typeof createFeedbackRecorder> | undefined;
  const deps = gatewayDeps(ports, {
    traceTtlSeconds: g.traceTtlSeconds,
    traceMaxCount: g.traceMaxCount,
    log,
    // On the gateway's fast-failing client: feedback sent during an outage is refused, not queued.
    recordFeedback: (input) => (recordFeedback ??= createFeedbackRecorder(deps))(input),
  });
  const app = await buildGateway(deps, {
    keys: { query: g.apiKeys, admin: g.adminKeys },
    queryTimeoutMs: g.queryTimeoutMs,
    maxUploadBytes: g.maxUploadBytes,
    maxSourceBytes: ports.config.extract.maxBytes,
    rateLimitPerMin: g.rateLimitPerMin,
  });
  const unused = trackUnusedConnections(app.server);
  const url = await app.listen({ host: g.host, port: overrides.port ?? g.port });
  log.info('gateway listening', { url });
  return {
    app,
    url,
    async close() {
      // In-flight requests finish; a connection that never sent a byte is closed at once.
      const closing = app.close();
      const sweep = setInterval(unused.destroy, UNUSED_SWEEP_MS);
      unused.destroy();
      try {
        await closing;
      } finally {
        clearInterval(sweep);
      }
      await deps.close();
    },
  };
}
