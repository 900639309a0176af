import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { createEmbedder } from '../../shared/embed/index.ts';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from '../../shared/embed/openai-embedder.ts';
import { fakeVector, startFakeOpenAiServer, type FakeOpenAiServer } from '../contract/fake-openai-server.ts';

let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer(8);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  for (const key of Object.keys(server.behaviour)) delete server.behaviour[key as keyof typeof server.behaviour];
});

function make(extra: Partial<OpenAiEmbedderOptions> = {}) {
  return createOpenAiEmbedder({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'fake', dimension: 8, maxRetries: 0, ...extra });
}

async function failure(p: Promise<unknown>): Promise<PermanentError | RetryableError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err === null).toBe(false);
  return err as PermanentError | RetryableError;
}

describe('openai embedder', () => {
  it('sends floats, the model and the key; batches; normalises; restores order by index', async () => {
    server.behaviour.reverse = true;
    const texts = ['a', 'b', 'c', 'd', 'e'];
    const vectors = await make({ maxBatchSize: 2 }).embed(texts);
    expect(server.requests.map((r) => r.body.input)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(server.requests[0]?.body).toMatchObject({ model: 'fake', encoding_format: 'float' });
    expect(server.requests[0]?.body.dimensions).toBeUndefined();
    expect(server.requests[0]?.authorization).toBe('Bearer sk-test');
    texts.forEach((t, i) => {
      const raw = fakeVector(t, 8);
      const n = Math.hypot(...raw);
      expect(Array.from(vectors[i] as Float32Array)).toEqual(raw.map((x) => expect.closeTo(x / n, 6)));
    });
  });

  it('sends dimensions only when asked (and createEmbedder asks for text-embedding-3-*)', async () => {
    await make({ sendDimensions: true }).embed(['x']);
    expect(server.requests.at(-1)?.body.dimensions).toBe(8);
    await createEmbedder({ provider: 'openai', model: 'text-embedding-3-small', dimension: 8, baseUrl: server.baseURL, apiKey: 'k' }).embed(['x']);
    expect(server.requests.at(-1)?.body.dimensions).toBe(8);
    await createEmbedder({ provider: 'openai', model: 'nomic-embed-text', dimension: 8, baseUrl: server.baseURL }).embed(['x']);
    expect(server.requests.at(-1)?.body.dimensions).toBeUndefined();
  });

  it.each([429, 408, 500, 503])('HTTP %i is retryable EMBEDDER_UNAVAILABLE', async (status) => {
    server.behaviour.status = status;
    const err = await failure(make().embed(['x']));
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe('EMBEDDER_UNAVAILABLE');
  });

  it.each([400, 401, 403, 404, 422])('HTTP %i is permanent EMBEDDER_UNAVAILABLE', async (status) => {
    server.behaviour.status = status;
    const err = await failure(make().embed(['x']));
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(err.message).toContain(String(status));
  });

  it('a timeout and a refused connection are retryable', async () => {
    server.behaviour.delayMs = 300;
    const timeout = await failure(make({ timeoutMs: 50 }).embed(['x']));
    expect(timeout).toBeInstanceOf(RetryableError);
    const refused = await failure(
      createOpenAiEmbedder({ baseURL: 'http://127.0.0.1:1/v1', model: 'fake', dimension: 8, maxRetries: 0, timeoutMs: 2000 }).embed(['x']),
    );
    expect(refused).toBeInstanceOf(RetryableError);
    expect(refused.code).toBe('EMBEDDER_UNAVAILABLE');
  });

  it('a wrong count or dimension is DIMENSION_MISMATCH', async () => {
    server.behaviour.dropItems = 1;
    const count = await failure(make().embed(['x', 'y']));
    expect(count).toBeInstanceOf(PermanentError);
    expect(count.code).toBe('DIMENSION_MISMATCH');
    delete server.behaviour.dropItems;
    server.behaviour.dimensionOverride = 7;
    const dim = await failure(make().embed(['x']));
    expect(dim.code).toBe('DIMENSION_MISMATCH');
    expect(dim.message).toMatch(/expected dimension 8, got 7/);
  });

  it('an aborted signal cancels with the caller\'s reason', async () => {
    server.behaviour.delayMs = 200;
    const controller = new AbortController();
    const pending = make().embed(['x'], controller.signal);
    setTimeout(() => controller.abort(new Error('job cancelled')), 20);
    const err = await pending.then(() => null, (e: unknown) => e);
    expect((err as Error).message).toBe('job cancelled');
  });

  it('refuses bad config', () => {
    expect(() => createOpenAiEmbedder({ model: '', dimension: 8 })).toThrow(PermanentError);
    expect(() => createOpenAiEmbedder({ model: 'm', dimension: 0 })).toThrow(PermanentError);
    expect(() => createEmbedder({ provider: 'openai', dimension: 8 })).toThrow(/model/);
  });
});
