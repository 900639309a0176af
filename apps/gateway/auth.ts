import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../core/failures.ts';

export type Role = 'query' | 'admin';

export interface ApiKeys {
  /** Keys that may ask questions, read runs and give feedback. */
  query: readonly string[];
  /** Keys that may also manage documents and read traces. */
  admin: readonly string[];
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The key a request carries: `Authorization: Bearer <key>`, `X-API-Key: <key>`, or the password
 * of HTTP Basic auth (how a browser gives it, for the queue UI).
 */
export function requestKey(req: Pick<FastifyRequest, 'headers'>): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  if (typeof auth === 'string' && /^basic\s+/i.test(auth)) {
    const decoded = Buffer.from(auth.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 && decoded.length > colon + 1 ? decoded.slice(colon + 1) : null;
  }
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header ? header.trim() : null;
}

/**
 * The role a key grants (admin keys can do what query keys can). With no keys configured at all,
 * every request is admin: only allowed when the gateway listens on loopback (checked at start).
 * @throws HttpError 401 without a known key, 403 when the key's role is too small.
 */
export function authorise(keys: ApiKeys, key: string | null, needed: Role): Role {
  if (keys.query.length === 0 && keys.admin.length === 0) return 'admin';
  if (!key) throw new HttpError(401, 'UNAUTHORIZED', 'an API key is required (Authorization: Bearer <key> or X-API-Key)');
  if (keys.admin.some((k) => safeEqual(k, key))) return 'admin';
  if (keys.query.some((k) => safeEqual(k, key))) {
    if (needed === 'admin') throw new HttpError(403, 'FORBIDDEN', 'this endpoint needs an admin key');
    return 'query';
  }
  throw new HttpError(401, 'UNAUTHORIZED', 'unknown API key');
}
