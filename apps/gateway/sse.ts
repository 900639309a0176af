import type { FastifyReply, FastifyRequest } from 'fastify';

/** An open `text/event-stream` response. */
export interface SseStream {
  /** Aborts when the client goes away: stop reading the run. */
  readonly signal: AbortSignal;
  /**
   * Writes one event (`event:` line when `event` is given, then `data:` as JSON, or raw text for
   * a string). Resolves when the socket can take more: a slow client slows the reading down
   * instead of piling events up in memory. Resolves at once once the client is gone.
   */
  send(event: string | null, data: unknown): Promise<void>;
  end(): void;
}

/** How often an open stream sends a comment line while no event comes. @defaultValue 15000 */
export const SSE_HEARTBEAT_MS = 15_000;

/** Formats one server-sent event. */
export function formatSse(event: string | null, data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  // A data line may not hold a newline: each line of the payload is a data line of its own.
  const lines = text.split('\n').map((l) => `data: ${l}`);
  return `${event ? `event: ${event}\n` : ''}${lines.join('\n')}\n\n`;
}

/**
 * True when the request asks for a stream: `Accept: text/event-stream`, or `stream: true` in the
 * body (checked by the caller's schema).
 */
export function acceptsEventStream(req: Pick<FastifyRequest, 'headers'>): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && /\btext\/event-stream\b/i.test(accept);
}

/**
 * Takes the response over from Fastify (after auth, rate limit and validation ran) and opens an
 * event stream on it; `heartbeatMs` (default {@link SSE_HEARTBEAT_MS}) spaces its comment lines.
 */
export function openSse(reply: FastifyReply, opts: { heartbeatMs?: number } = {}): SseStream {
  const res = reply.raw;
  const gone = new AbortController();
  // A comment line now and then: proxies and load balancers close connections that stay silent
  // (a model may think for a while before its first token); SSE clients ignore comments.
  const heartbeat = setInterval(() => {
    if (!res.writableEnded && res.writableLength === 0) res.write(': ping\n\n');
  }, opts.heartbeatMs ?? SSE_HEARTBEAT_MS);
  heartbeat.unref();
  const onClose = () => {
    clearInterval(heartbeat);
    gone.abort();
  };
  // The response's close (not the request's): it fires when the client disconnects mid-stream.
  res.on('close', onClose);
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies (nginx) would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  return {
    signal: gone.signal,
    async send(event, data) {
      if (gone.signal.aborted || res.writableEnded) return;
      if (!res.write(formatSse(event, data))) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    },
    end() {
      clearInterval(heartbeat);
      res.off('close', onClose);
      if (!res.writableEnded) res.end();
    },
  };
}
