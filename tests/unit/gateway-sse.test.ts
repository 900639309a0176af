import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsEventStream, formatSse, openSse } from '../../apps/gateway/sse.ts';

describe('server-sent events', () => {
  let app: FastifyInstance;
  let base: string;
  const seen: { aborted: Promise<void> | null } = { aborted: null };

  beforeAll(async () => {
    app = Fastify();
    app.get('/sse', async (_req, reply) => {
      const sse = openSse(reply, { heartbeatMs: 50 });
      seen.aborted = new Promise<void>((r) => sse.signal.addEventListener('abort', () => r(), { once: true }));
      await sse.send('run', { runId: 'r1' });
      // Never ends by itself: only the client's leaving ends it.
      await seen.aborted;
      sse.end();
      return reply;
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('formats events with a name and JSON or raw data, one data line per line', () => {
    expect(formatSse('delta', { text: 'a' })).toBe('event: delta\ndata: {"text":"a"}\n\n');
    expect(formatSse(null, '[DONE]')).toBe('data: [DONE]\n\n');
    expect(formatSse(null, 'a\nb')).toBe('data: a\ndata: b\n\n');
  });

  it('is asked for by Accept: text/event-stream', () => {
    expect(acceptsEventStream({ headers: { accept: 'text/event-stream' } })).toBe(true);
    expect(acceptsEventStream({ headers: { accept: 'application/json' } })).toBe(false);
    expect(acceptsEventStream({ headers: {} })).toBe(false);
  });

  it('streams with the event-stream type, and its signal aborts when the client disconnects', async () => {
    const client = new AbortController();
    const res = await fetch(`${base}/sse`, { signal: client.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('event: run\ndata: {"runId":"r1"}\n\n');
    // While nothing happens, a comment keeps the connection alive.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': ping\n\n');
    client.abort();
    await expect(Promise.race([seen.aborted, new Promise((_, rej) => setTimeout(() => rej(new Error('not aborted')), 5000))])).resolves.toBeUndefined();
  });
});
