import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { QueueEvents } from 'bullmq';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { agentRunQueue } from '../../core/queues.ts';
import { authorise, requestKey, type Role } from './auth.ts';
import { failureFields, HttpError, toHttp } from '../../core/failures.ts';
import { registerRateLimit } from './rate-limit.ts';
import { whenReady, withDeadline } from './request-redis.ts';
import { watchConnection } from '../../shared/redis/index.ts';
import { adminRoutes } from './routes/admin.ts';
import { bucketEventRoutes, documentRoutes } from './routes/documents.ts';
import { queryRoutes } from './routes/query.ts';
import { chatRoutes } from './routes/chat.ts';
import { retryRoutes } from './routes/retry.ts';
import { createUseCaseDeps, newRunId } from '../../core/deps.ts';
import { createRunStreamReader } from '../../core/ask/index.ts';
// The gateway hosts the MCP face at /mcp (one port, one key check): an app→app import the
// architecture test allows for this file only (tests/helpers/import-graph.ts, COMPOSITION_ROOTS).
import { mcpRoutes } from '../mcp/index.ts';
import { libraryRoutes } from './routes/library.ts';
import { webRoutes } from './routes/web.ts';
import type { GatewayDeps, GatewayOptions } from './types.ts';

export type { GatewayDeps, GatewayOptions } from './types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    role: Role;
    /** Why the request is answered 500, for its log line (an error, or a failed run's code). */
    failure: unknown;
  }
  interface FastifyContextConfig {
    /** The role a route needs; routes without one are public (health, docs). */
    role?: Role;
  }
}

/** Largest body of a JSON route (the PDF upload has its own limit, MAX_UPLOAD_BYTES). @defaultValue 1 MiB */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Seconds a client is asked to wait before retrying while Redis is unavailable. */
const REDIS_RETRY_AFTER_S = 5;

/** How long /readyz waits for Redis to answer PING: a probe must get its answer within a second. */
const READY_PING_MS = 500;

/**
 * The HTTP API (Fastify): validated with zod, keys checked per route, errors mapped in one table.
 * @throws RetryableError REDIS_UNAVAILABLE when Redis is not ready within 10 s of the start.
 */
export async function buildGateway(deps: GatewayDeps, opts: GatewayOptions): Promise<FastifyInstance> {
  // Every route but the upload reads JSON: a body over 1 MiB is refused (413) before it is
  // buffered whole; the upload's parser carries its own, larger limit.
  const app = Fastify({ logger: false, bodyLimit: JSON_BODY_LIMIT_BYTES });
  await whenReady(deps.redis, 10_000);
  // Requests are validated with zod in the handlers (errors name the field); the JSON schemas
  // on routes are for the OpenAPI document only.
  app.setValidatorCompiler(() => () => true);
  app.decorateRequest('role', 'query');
  app.decorateRequest('failure', null);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Quarry', version: '0.1.0', description: 'Ask questions of a bucket of PDFs; answers cite document, section and pages.' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.addHook('onRequest', async (req: FastifyRequest) => {
    const role = req.routeOptions.config.role;
    if (role) req.role = authorise(opts.keys, requestKey(req), role);
  });
  app.setErrorHandler((err, req, reply) => {
    const fastifyErr = err as { statusCode?: number; code?: string; message: string };
    if (fastifyErr.statusCode && fastifyErr.statusCode < 500 && fastifyErr.code?.startsWith('FST_')) {
      const code = fastifyErr.statusCode === 413 ? 'TOO_LARGE' : 'INVALID_PAYLOAD';
      return reply.status(fastifyErr.statusCode).send({ error: { code, message: fastifyErr.message } });
    }
    let { status, body } = toHttp(err);
    // A failure while the request client is disconnected is the outage, whatever the error says.
    if (status === 500 && deps.redis.status !== 'ready') ({ status, body } = toHttp(new HttpError(503, 'REDIS_UNAVAILABLE', 'Redis is unavailable: try again shortly')));
    if (status === 503) reply.header('retry-after', String(REDIS_RETRY_AFTER_S));
    // A route may have said why first (a failed run's code): that is the better cause.
    if (status === 500) req.failure ??= err;
    return reply.status(status).send(body);
  });
  // The client is told only "internal error": the log is where the cause goes, once per response,
  // whoever answered it (a route, the error handler, a plugin's own handler).
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode !== 500) return;
    deps.log.error('request failed', { method: req.method, route: req.routeOptions.url ?? null, status: 500, reqId: req.id, ...failureFields(req.failure) });
  });
  app.setNotFoundHandler((req, reply) => {
    const { status, body } = toHttp(new HttpError(404, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`));
    return reply.status(status).send(body);
  });
  // The web app's static files come before the limiter, which only counts routes registered after
  // it: they hold no data, and counting them in Redis made an outage take the app itself down.
  await webRoutes(app);
  if (opts.rateLimitPerMin) await registerRateLimit(app, { redis: deps.redis, prefix: deps.prefix, perMinute: opts.rateLimitPerMin });

  const events = new QueueEvents(agentRunQueue.name, { connection: deps.eventsConnection, prefix: deps.prefix });
  // QueueEvents blocks on a duplicate of its connection: its errors arrive here, not on the original.
  watchConnection(events, 'gateway-events', deps.connectionLog);
  await events.waitUntilReady();
  app.addHook('onClose', async () => {
    // BullMQ waits for the blocking client's 'end', which never comes if it is between two
    // reconnect attempts (Redis just restarted): shutdown must not hang on it.
    await withDeadline(events.close(), 2000).catch(() => undefined);
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  // Reads nothing but the key (not limited, see RATE_LIMIT_EXEMPT): the app learns what to offer even during an outage.
  app.get('/v1/whoami', { config: { role: 'query' }, schema: { summary: 'The role of the key sent: "query" (ask, search, read) or "admin" (also upload, retry, delete, traces)' } }, async (req) => ({
    role: req.role,
  }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const pong = await withDeadline(deps.redis.ping(), READY_PING_MS).catch(() => null);
    return reply.status(pong === 'PONG' ? 200 : 503).send({ ready: pong === 'PONG' });
  });

  // Streamed answers: one blocking connection of its own reads every streamed run (see createRunStreamReader).
  const streams = createRunStreamReader(
    () => {
      const blocking = deps.eventsConnection.duplicate();
      // Logged as the gateway's other blocking reader (QueueEvents): one line per outage.
      watchConnection(blocking, 'gateway-events', deps.connectionLog);
      return blocking;
    },
    deps.redis,
    deps.prefix,
  );
  // Before the server waits for in-flight requests: open streams end now (an error event), not at their deadline.
  app.addHook('preClose', async () => {
    await withDeadline(streams.close(), 2000).catch(() => undefined);
  });
  const runOpts = { ...opts, newRunId: opts.newRunId ?? newRunId };
  await queryRoutes(app, deps, runOpts, events, streams);
  await chatRoutes(app, deps, runOpts, events, streams);
  await documentRoutes(app, deps, opts);
  await bucketEventRoutes(app, deps);
  await adminRoutes(app, deps, opts.keys);
  await retryRoutes(app, deps);
  const useCases = createUseCaseDeps({ ...deps.search, status: deps.status, agentQueue: deps.queues.queue(agentRunQueue), events, askTimeoutMs: opts.queryTimeoutMs, newRunId: opts.newRunId });
  await mcpRoutes(app, useCases);
  // The web app's search is the MCP search tool over plain HTTP: one use case (core/search.ts), one schema.
  await libraryRoutes(app, deps, useCases);
  return app;
}
