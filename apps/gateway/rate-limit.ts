import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { rateLimitNamespace } from '../../shared/redis/index.ts';
import { requestKey } from './auth.ts';
import { HttpError } from '../../core/failures.ts';

/**
 * Routes never limited: probes and scrapes must answer whatever a caller does, and `/v1/whoami`
 * (which reads nothing but the key) lets the web app start while Redis, where counts live, is down.
 * The web app's static files are not limited either: they are registered before the limiter.
 */
export const RATE_LIMIT_EXEMPT: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics', '/v1/whoami']);

/**
 * Who a request counts against: a hash of its API key (the key itself never reaches Redis), or
 * its IP when it has none (keys off, or a request about to be refused). Keys are checked before
 * the limiter runs, so an unknown key is answered 401 and never gets a counter of its own.
 */
export function rateLimitKey(req: Pick<FastifyRequest, 'headers' | 'ip'>): string {
  const key = requestKey(req);
  if (key) return `key:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
  return `ip:${req.ip}`;
}

/**
 * Limits every route but the exempt ones to `perMinute` requests per caller per minute, counted in
 * Redis under `<prefix>:ratelimit:` so every gateway replica shares the count. Over the limit the
 * answer is 429 RATE_LIMITED with Retry-After (seconds until the window ends). When Redis is down
 * the count fails like any request-path command, and the request is answered 503.
 * Must be registered before the routes it limits.
 */
export async function registerRateLimit(app: FastifyInstance, opts: { redis: Redis; prefix: string; perMinute: number }): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: opts.perMinute,
    timeWindow: 60_000,
    redis: opts.redis,
    nameSpace: rateLimitNamespace(opts.prefix),
    // An outage answers 503 through the error handler; skipping the limit would let it be bypassed.
    skipOnError: false,
    keyGenerator: rateLimitKey,
    allowList: (req) => RATE_LIMIT_EXEMPT.has(req.routeOptions.url ?? ''),
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(ctx.statusCode, 'RATE_LIMITED', `more than ${ctx.max} requests per minute from this caller: retry in ${ctx.after}`),
  });
}
