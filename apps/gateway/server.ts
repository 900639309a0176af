import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { QueueEvents } from 'bullmq';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import { authorise, requestKey, type Role } from './auth.ts';
import { toHttp } from './http-errors.ts';
import { adminRoutes } from './routes/admin.ts';
import { bucketEventRoutes, documentRoutes } from './routes/documents.ts';
import { queryRoutes } from './routes/query.ts';
import { retryRoutes } from './routes/retry.ts';
import type { GatewayDeps, GatewayOptions } from './types.ts';

export type { GatewayDeps, GatewayOptions } from './types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    role: Role;
  }
  interface FastifyContextConfig {
    /** The role a route needs; routes without one are public (health, docs). */
    role?: Role;
  }
}

/** The HTTP API (Fastify): validated with zod, keys checked per route, errors mapped in one table. */
export async function buildGateway(deps: GatewayDeps, opts: GatewayOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: Math.max(1024 * 1024, opts.maxUploadBytes) });
  // Requests are validated with zod in the handlers (errors name the field); the JSON schemas
  // on routes are for the OpenAPI document only.
  app.setValidatorCompiler(() => () => true);
  app.decorateRequest('role', 'query');
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
  app.setErrorHandler((err, _req, reply) => {
    const fastifyErr = err as { statusCode?: number; code?: string; message: string };
    if (fastifyErr.statusCode && fastifyErr.statusCode < 500 && fastifyErr.code?.startsWith('FST_')) {
      return reply.status(fastifyErr.statusCode).send({ error: { code: 'INVALID_PAYLOAD', message: fastifyErr.message } });
    }
    const { status, body } = toHttp(err);
    return reply.status(status).send(body);
  });

  const events = new QueueEvents(agentRunQueue.name, { connection: deps.eventsConnection, prefix: deps.prefix });
  await events.waitUntilReady();
  app.addHook('onClose', async () => {
    await events.close();
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const pong = await deps.redis.ping().catch(() => null);
    return reply.status(pong === 'PONG' ? 200 : 503).send({ ready: pong === 'PONG' });
  });

  await queryRoutes(app, deps, { ...opts, newRunId: opts.newRunId ?? (() => randomUUID().replace(/-/g, '')) }, events);
  await documentRoutes(app, deps, opts);
  await bucketEventRoutes(app, deps);
  await adminRoutes(app, deps, opts.keys);
  await retryRoutes(app, deps);
  return app;
}
