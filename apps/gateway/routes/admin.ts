import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import { ALL_QUEUES } from '../../../core/queues.ts';
import { quarryMetrics } from '../../../shared/metrics/index.ts';
import { authorise, requestKey, type ApiKeys } from '../auth.ts';
import { toHttp } from '../../../core/failures.ts';
import { withDeadline } from '../request-redis.ts';
import type { GatewayDeps } from '../types.ts';

/** Where the queue UI lives. */
export const QUEUE_UI_PATH = '/admin/queues';

/** How long a scrape waits for Redis (its PING, the queue counts) before reporting it down. */
const SCRAPE_REDIS_MS = 500;

/**
 * `GET /metrics` (Prometheus, no key: counts and durations only, no ids or text; answers during a
 * Redis outage too, with `quarry_redis_up 0` and no `quarry_jobs` series) and the Bull
 * Board queue UI at `/admin/queues` (admin key; a browser can give it as the password of HTTP
 * Basic auth).
 */
export async function adminRoutes(app: FastifyInstance, deps: GatewayDeps, keys: ApiKeys): Promise<void> {
  const metrics = quarryMetrics();
  // While the request client is disconnected the counts are left out at once, not after a timeout.
  metrics.setJobCounts(async () =>
    deps.redis.status !== 'ready' ? [] : withDeadline(Promise.all(ALL_QUEUES.map(async (q) => ({ queue: q.name, counts: { ...(await deps.queues.counts(q)) } }))), SCRAPE_REDIS_MS),
  );
  metrics.setRedisProbe(async () => (await withDeadline(deps.redis.ping(), SCRAPE_REDIS_MS).catch(() => null)) === 'PONG');
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const adapter = new FastifyAdapter();
  adapter.setBasePath(QUEUE_UI_PATH);
  createBullBoard({ queues: ALL_QUEUES.map((q) => new BullMQAdapter(deps.queues.queue(q))), serverAdapter: adapter });
  await app.register(
    async (scope) => {
      // Every route of the UI, its API and its assets, needs an admin key. Answered here rather
      // than thrown: the UI plugin has an error handler of its own.
      scope.addHook('onRequest', async (req, reply) => {
        try {
          authorise(keys, requestKey(req), 'admin');
        } catch (err) {
          const { status, body } = toHttp(err);
          if (status === 401) reply.header('www-authenticate', 'Basic realm="quarry admin"');
          return reply.status(status).send(body);
        }
      });
      await scope.register(adapter.registerPlugin());
    },
    { prefix: QUEUE_UI_PATH },
  );
}
