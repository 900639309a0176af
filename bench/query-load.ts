/**
 * A small, bounded HTTP load generator for the query benchmark: `total` POSTs spread over
 * `concurrency` lanes, each lane sending its next request when the previous one has answered
 * (closed loop), with a per-request timeout and an overall deadline. Node's own fetch; no package.
 */

export interface LoadOptions {
  url: string;
  /** Request bodies, used round-robin. */
  bodies: readonly unknown[];
  total: number;
  concurrency: number;
  /** Per-request timeout. @defaultValue 30000 */
  requestTimeoutMs?: number;
  /** Stop starting requests after this long. @defaultValue 300000 */
  deadlineMs?: number;
  headers?: Record<string, string>;
}

export interface LoadResult {
  /** 2xx answers whose body said `state: completed`. */
  ok: number;
  /** Anything else: non-2xx, a 202 (the gateway gave up waiting), a network error, a timeout. */
  failed: number;
  /** Status (or error name) → count, for everything that was not ok. */
  failures: Record<string, number>;
  /** Wall time from the first request to the last answer, seconds. */
  seconds: number;
  /** ok answers per second of wall time. */
  requestsPerSecond: number;
  /** Latency of every ok request, ms. */
  latenciesMs: number[];
  /** Requests not started because the deadline passed. */
  notStarted: number;
}

/** Fires the requests and waits for every answer. Never throws for a failed request: it counts it. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  if (!(opts.total >= 0 && opts.concurrency >= 1)) throw new RangeError('total must be ≥ 0 and concurrency ≥ 1');
  const requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
  const deadline = performance.now() + (opts.deadlineMs ?? 300_000);
  const latenciesMs: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (why: string) => {
    failures[why] = (failures[why] ?? 0) + 1;
  };
  let next = 0;
  let started = 0;

  const lane = async () => {
    while (next < opts.total && performance.now() < deadline) {
      const i = next++;
      started += 1;
      const body = JSON.stringify(opts.bodies[i % opts.bodies.length]);
      const t0 = performance.now();
      try {
        const res = await fetch(opts.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...opts.headers },
          body,
          signal: AbortSignal.timeout(requestTimeoutMs),
        });
        const json = (await res.json().catch(() => null)) as { state?: string } | null;
        if (res.status === 200 && json?.state === 'completed') latenciesMs.push(performance.now() - t0);
        else fail(`HTTP ${res.status}${json?.state ? ` ${json.state}` : ''}`);
      } catch (err) {
        fail(err instanceof Error ? err.name : 'error');
      }
    }
  };

  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, Math.max(1, opts.total)) }, lane));
  const seconds = (performance.now() - t0) / 1000;
  const failed = Object.values(failures).reduce((s, n) => s + n, 0);
  return {
    ok: latenciesMs.length,
    failed,
    failures,
    seconds: Math.round(seconds * 100) / 100,
    requestsPerSecond: seconds > 0 ? Math.round((latenciesMs.length / seconds) * 10) / 10 : 0,
    latenciesMs,
    notStarted: opts.total - started,
  };
}
