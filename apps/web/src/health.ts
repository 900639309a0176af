/**
 * What the app knows of the API's health, so an outage shows as an outage (a banner, lists kept
 * and marked stale) instead of as empty data. An API answer can only say "down"; "back" is read
 * from `/readyz`, which asks Redis itself: a route that happens not to need Redis (whoami,
 * search) answering fine proves nothing about the rest.
 */

/** Fine; Redis down (the API answers 503 REDIS_UNAVAILABLE); or no answer from the gateway at all. */
export type ApiHealth = 'ok' | 'redis-unavailable' | 'unreachable';

/** How often `/readyz` is asked while the API is not healthy. @defaultValue 1000 */
export const READINESS_POLL_MS = 1000;

/** The health an error answer of the API shows; null when it says nothing about it (400, 404…). */
export function healthOfAnswer(status: number, code: string): Exclude<ApiHealth, 'ok'> | null {
  return status === 503 && code === 'REDIS_UNAVAILABLE' ? 'redis-unavailable' : null;
}

/**
 * The health `/readyz` shows: 200 is fine; the gateway's own 503 (`{ready: false}`) is Redis down;
 * anything else (no answer, a proxy's 502) is the gateway out of reach.
 * @param status null when the request failed without an answer.
 */
export function healthOfReadiness(status: number | null, body: unknown): ApiHealth {
  if (status === 200) return 'ok';
  const notReady = typeof body === 'object' && body !== null && (body as { ready?: unknown }).ready === false;
  return status === 503 && notReady ? 'redis-unavailable' : 'unreachable';
}

let current: ApiHealth = 'ok';
let polling = false;
const listeners = new Set<(h: ApiHealth) => void>();

/** The health as last seen. */
export function apiHealth(): ApiHealth {
  return current;
}

/** Calls `fn` on every change of health; returns the unsubscribe. */
export function onHealth(fn: (h: ApiHealth) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

async function readiness(): Promise<ApiHealth> {
  try {
    const res = await fetch('/readyz', { cache: 'no-store' });
    return healthOfReadiness(res.status, await res.json().catch(() => null));
  } catch {
    return healthOfReadiness(null, null);
  }
}

/** Asks `/readyz` every {@link READINESS_POLL_MS} until the API is healthy again (one poller at a time). */
function pollUntilHealthy(): void {
  if (polling) return;
  polling = true;
  const tick = async () => {
    report(await readiness());
    if (current === 'ok') polling = false;
    else setTimeout(() => void tick(), READINESS_POLL_MS);
  };
  setTimeout(() => void tick(), READINESS_POLL_MS);
}

function report(h: ApiHealth): void {
  if (h === current) return;
  current = h;
  listeners.forEach((fn) => fn(h));
}

/** Records that an API call found the API unhealthy; the app then watches `/readyz` until it is back. */
export function reportUnhealthy(h: Exclude<ApiHealth, 'ok'>): void {
  report(h);
  pollUntilHealthy();
}
